// Test helpers shared by the worker tests: requests against the app with the test bindings,
// and sign-in through the real local identity service.
import { env } from "cloudflare:workers";
import { eq } from "drizzle-orm";
import { app } from "../app";
import { createDb } from "../db/client";
import { authUsers, mailOutbox, profiles, subscriptions } from "../db/schema";
import { shardBindings, shardDatabase, shardPrimaries } from "../db/shards";
import { answerProblem } from "./declared-answers";

/** The directory database (DB): identity, profiles, plans, the store network (decision 076). */
export const db = () => createDb(env.DB);

/** Every test shard on its primary, as a scheduled run hands them to its jobs. */
export const testShards = () => shardPrimaries(env as unknown as Record<string, unknown>);

/** Every test shard by name, and their names, as a webhook request hands them to recordCallEvent. */
export const testAccountShards = () => ({
  named: (name: string) => createDb(shardDatabase(env as unknown as Record<string, unknown>, name)),
  bound: shardBindings(env as unknown as Record<string, unknown>),
});

/** The shard binding an account is placed on (profiles.shard). */
export async function shardNameOf(accountId: string): Promise<string> {
  const row = await db().select({ shard: profiles.shard }).from(profiles).where(eq(profiles.id, accountId)).get();
  if (!row?.shard) throw new Error(`account ${accountId} has no profile placed on a shard`);
  return row.shard;
}

/** The shard database holding an account's calls, roll-ups, alerts and webhooks. */
export const shardOf = async (accountId: string) => createDb(shardDatabase(env as unknown as Record<string, unknown>, await shardNameOf(accountId)));

export type Json = Record<string, any>;

/** `bindings` overrides test bindings for this one request (e.g. SUPABASE_URL to switch to the real identity adapter). */
export async function call(
  path: string,
  init: RequestInit & { json?: unknown; token?: string; ip?: string; bindings?: Record<string, unknown> } = {},
) {
  const headers = new Headers(init.headers);
  if (init.json !== undefined) headers.set("content-type", "application/json");
  if (init.token) headers.set("authorization", `Bearer ${init.token}`);
  headers.set("cf-connecting-ip", init.ip ?? `10.0.${Math.floor(Math.random() * 250)}.${Math.floor(Math.random() * 250)}`);
  const res = await app.request(
    `http://localhost${path}`,
    { ...init, headers, body: init.json !== undefined ? JSON.stringify(init.json) : init.body },
    init.bindings ? { ...env, ...init.bindings } : env,
  );
  const text = await res.text();
  let body: Json = {};
  try {
    body = text ? JSON.parse(text) : {};
  } catch {
    body = { text };
  }
  if (res.headers.get("content-type")?.startsWith("application/json")) {
    const problem = answerProblem(init.method ?? "GET", path, res.status, body);
    if (problem) throw new Error(problem);
  }
  return { status: res.status, body, headers: res.headers };
}

/** The one-time token and kind of a mailed link (they travel in its fragment). */
export function linkToken(link: string) {
  const params = new URLSearchParams(new URL(link).hash.slice(1));
  return { token_hash: params.get("token_hash") ?? "", type: params.get("type") ?? "" };
}

/** Spends a mailed link as its page does: POST /auth/v1/verify with the fragment's token. */
export const spendLink = (link: string) => call("/auth/v1/verify", { method: "POST", json: linkToken(link) });

let counter = 0;
export const uniqueEmail = (prefix = "user") => `${prefix}.${Date.now()}.${++counter}@example.com`;

/**
 * A subscription for a test account, as the billing webhooks write it. Dated in the past so that a
 * test inserting its own subscription (a plan limit case) has the newer, deciding one.
 */
export async function subscribe(userId: string, plan: "basic" | "pro" = "pro", status = "active") {
  await db().insert(subscriptions).values({
    id: `sub_test_${userId}_${plan}_${status}`,
    userId,
    customerId: `cus_test_${userId}`,
    priceId: `price_test_${plan}`,
    productName: plan === "pro" ? "Pro" : "Basic",
    status,
    updatedAt: "2000-01-01T00:00:00.000Z",
  });
}

/**
 * Registers, confirms through the mailed link, and signs in; returns the session. The account is on
 * the pro plan unless `plan` says otherwise (null: no subscription), since paid resources need one.
 */
export async function signUpAndSignIn(opts: { email?: string; password?: string; appMetadata?: Json; plan?: "basic" | "pro" | null } = {}) {
  const email = opts.email ?? uniqueEmail();
  const password = opts.password ?? "Secret123";
  const signup = await call("/auth/v1/signup", { method: "POST", json: { email, password, data: { username: "tester", company: "Acme" } } });
  if (signup.status !== 200) throw new Error(`signup failed: ${JSON.stringify(signup.body)}`);
  const [mail] = await db().select().from(mailOutbox).where(eq(mailOutbox.toEmail, email.toLowerCase()));
  const verify = await spendLink(mail.link!);
  if (verify.status !== 200) throw new Error(`verify failed: ${verify.status}`);
  if (opts.appMetadata) {
    await db().update(authUsers).set({ appMetadata: opts.appMetadata }).where(eq(authUsers.id, signup.body.id));
  }
  if (opts.plan !== null) await subscribe(signup.body.id, opts.plan ?? "pro");
  const token = await call("/auth/v1/token?grant_type=password", { method: "POST", json: { email, password } });
  if (token.status !== 200) throw new Error(`sign-in failed: ${JSON.stringify(token.body)}`);
  return { email, password, userId: signup.body.id as string, accessToken: token.body.access_token as string, refreshToken: token.body.refresh_token as string };
}
