// What `npm start` and `npm run dev` print once the app answers: where to open it and how to sign in.

export const DEMO_PASSWORD = "demo-password-1";

export const DEMO_ACCOUNTS = [
  { email: "admin@demo.local", role: "admin (is_admin): the Admin Dashboard, users, phone-number limit" },
  { email: "staff@demo.local", role: "store staff (shopwindows_info, call_app): appointments, leads, Aircall, analysis" },
  { email: "customer@demo.local", role: "customer (no flags): agents, phone numbers, call logs" },
];

/**
 * `shards` (email → shard binding, localDemoShards) names each account's shard, so a developer knows
 * which sign-in reads which database.
 */
export function printReady(baseUrl, { mode, stopHint = "Ctrl-C stops it.", shards } = {}) {
  const width = Math.max(...DEMO_ACCOUNTS.map((a) => a.email.length));
  const shardWidth = Math.max(0, ...Object.values(shards ?? {}).map((s) => s.length));
  const on = (email) => (shards ? `${(shards[email] ?? "").padEnd(shardWidth)}  ` : "");
  const lines = [
    "",
    `  Voice-agent operations dashboard is running${mode ? ` (${mode})` : ""}`,
    "",
    `  Open        ${baseUrl}`,
    `  Mailbox     ${baseUrl}/mailbox   (confirmation and activation mail of local sign-ups)`,
    `  Health      ${baseUrl}/api/health`,
    "",
    `  Demo sign-ins (password for all: ${DEMO_PASSWORD})`,
    ...DEMO_ACCOUNTS.map((a) => `    ${a.email.padEnd(width)}  ${on(a.email)}${a.role}`),
    "",
    `  ${stopHint}`,
    "",
  ];
  console.log(lines.join("\n"));
}
