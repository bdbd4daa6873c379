// Standard Webhooks signatures (https://www.standardwebhooks.com): a secret is "whsec_" and the
// base64 of 32 random bytes; an attempt carries `webhook-id`, `webhook-timestamp` (seconds) and
// `webhook-signature`, a space-separated list of "v1,<base64 HMAC-SHA256 of id.timestamp.body>", one
// per secret that signs (two or three while rotated-out secrets are within their 24 hours).

const SECRET_PREFIX = "whsec_";
const enc = new TextEncoder();

function toBase64(bytes: Uint8Array): string {
  let s = "";
  for (const b of bytes) s += String.fromCharCode(b);
  return btoa(s);
}

function fromBase64(s: string): Uint8Array {
  return Uint8Array.from(atob(s), (c) => c.charCodeAt(0));
}

/** A new signing secret, shown to its owner once. */
export function generateWebhookSecret(): string {
  return SECRET_PREFIX + toBase64(crypto.getRandomValues(new Uint8Array(32)));
}

/** The key bytes of a secret ("whsec_" + base64). */
function secretBytes(secret: string): Uint8Array {
  return fromBase64(secret.startsWith(SECRET_PREFIX) ? secret.slice(SECRET_PREFIX.length) : secret);
}

/** "v1,<base64 HMAC-SHA256 of id.timestamp.body>" under one secret. */
export async function signatureOf(secret: string, id: string, timestampSeconds: number, body: string): Promise<string> {
  const key = await crypto.subtle.importKey("raw", secretBytes(secret), { name: "HMAC", hash: "SHA-256" }, false, ["sign"]);
  const mac = await crypto.subtle.sign("HMAC", key, enc.encode(`${id}.${timestampSeconds}.${body}`));
  return `v1,${toBase64(new Uint8Array(mac))}`;
}

/** The secrets of an endpoint as stored: the current one and up to two rotated out, each with its expiry. */
type StoredSecrets = { secret: string; previousSecret: string | null; previousSecretExpiresAt: string | null; olderSecret: string | null; olderSecretExpiresAt: string | null };

/** The secrets that sign at `at` (ISO time): the current one, then each rotated-out one before its expiry. */
export function signingSecrets(e: StoredSecrets, at: string): string[] {
  const secrets = [e.secret];
  if (e.previousSecret && e.previousSecretExpiresAt && e.previousSecretExpiresAt > at) secrets.push(e.previousSecret);
  if (e.olderSecret && e.olderSecretExpiresAt && e.olderSecretExpiresAt > at) secrets.push(e.olderSecret);
  return secrets;
}

/** The three headers of one attempt, signed with every secret given (current first). */
export async function signedHeaders(secrets: string[], id: string, timestampSeconds: number, body: string): Promise<Record<string, string>> {
  const signatures = await Promise.all(secrets.map((s) => signatureOf(s, id, timestampSeconds, body)));
  return { "webhook-id": id, "webhook-timestamp": String(timestampSeconds), "webhook-signature": signatures.join(" ") };
}

/**
 * A receiver's check, as the local receiver runs it: one of the signatures matches one of the
 * secrets, and the timestamp is within `toleranceSeconds` of `nowSeconds`. Null when it verifies,
 * otherwise why not.
 */
export async function verificationError(
  secrets: string[],
  headers: { id: string | null; timestamp: string | null; signature: string | null },
  body: string,
  nowSeconds: number,
  toleranceSeconds = 300,
): Promise<string | null> {
  if (!headers.id || !headers.timestamp || !headers.signature) return "missing webhook-id, webhook-timestamp or webhook-signature";
  const ts = Number(headers.timestamp);
  if (!Number.isInteger(ts)) return "webhook-timestamp is not a number of seconds";
  if (Math.abs(nowSeconds - ts) > toleranceSeconds) return "webhook-timestamp is too far from now";
  const sent = headers.signature.split(" ").filter((s) => s.startsWith("v1,"));
  for (const secret of secrets) {
    const expected = await signatureOf(secret, headers.id, ts, body);
    if (sent.includes(expected)) return null;
  }
  return "no signature matches the endpoint's secret";
}
