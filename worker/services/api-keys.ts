// API keys of the public API (docs/product/api-access.md, docs/api.md, decision 069): created with a
// name and scopes, the secret shown once and stored only as its SHA-256, at most API_KEY_LIMIT live
// per account, revoked by the owner. Creating and revoking go into the audit log in the same batch.
// `findKey` is the one D1 round trip a /v1 request spends on its key: the key, its account, the
// account's plan and the key's rate-limit count, in one batch.
import { and, count, desc, eq, isNull, sql } from "drizzle-orm";
import { API_KEY_LIMIT, API_KEY_PREFIXES, API_KEY_RATE, type ApiKeyCreateBody, type ApiKeyScope, type ApiKeyView } from "@shared/schemas/api-keys";
import type { AccountPlan } from "@shared/schemas/agents";
import type { Database } from "../db/client";
import { hitStatement, withinLimit, type Limit } from "../db/rate-limit";
import { apiKeys, profiles, subscriptions } from "../db/schema";
import { ApiError, notFound } from "../lib/errors";
import { auditStatement, type AdminActor } from "./admin/audit-log";
import { accountPlan, apiAccessRequired, hasApiAccess, PLAN_COLUMNS, planOf } from "./plans";
import type { CurrentUser } from "./profiles";

/** The per-key limit of /v1 requests. */
export const API_KEY_RATE_LIMIT: Limit = { name: "v1:key", ...API_KEY_RATE };

/** The fixed start of the keys this deployment issues and accepts. */
export const keyPrefixFor = (appEnv: string) => (appEnv === "production" ? API_KEY_PREFIXES.production : API_KEY_PREFIXES.other);

const ALPHABET = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz";
/** Characters of a secret after its prefix: 40 of 62, about 238 bits. */
const SECRET_LENGTH = 40;

/** A new secret: the prefix, then random letters and digits (unbiased: bytes of 248 and above are skipped). */
export function newSecret(appEnv: string): string {
  let out = "";
  while (out.length < SECRET_LENGTH) {
    for (const b of crypto.getRandomValues(new Uint8Array(64))) {
      if (b < 248 && out.length < SECRET_LENGTH) out += ALPHABET[b % 62];
    }
  }
  return keyPrefixFor(appEnv) + out;
}

/** What is stored of a secret: its SHA-256, hex. A secret of 238 random bits needs no slow hash (decision 069). */
export async function hashSecret(secret: string): Promise<string> {
  const digest = new Uint8Array(await crypto.subtle.digest("SHA-256", new TextEncoder().encode(secret)));
  return [...digest].map((b) => b.toString(16).padStart(2, "0")).join("");
}

/** What the list shows of a key: its prefix and the first four characters of its random part. */
export const displayPrefix = (secret: string) => secret.slice(0, secret.indexOf("_", 4) + 1 + 4);

type KeyRow = typeof apiKeys.$inferSelect;
const toView = (r: Pick<KeyRow, "id" | "name" | "scopes" | "prefix" | "createdAt" | "lastUsedAt">): ApiKeyView => ({
  id: r.id,
  name: r.name,
  scopes: r.scopes as ApiKeyScope[],
  prefix: r.prefix,
  createdAt: r.createdAt,
  lastUsedAt: r.lastUsedAt,
});

/** The account's live keys, newest first, and whether its plan lets it create and use them. */
export async function listApiKeys(db: Database, user: CurrentUser) {
  const [rows, plan] = await Promise.all([
    db
      .select()
      .from(apiKeys)
      .where(and(eq(apiKeys.userId, user.id), isNull(apiKeys.revokedAt)))
      .orderBy(desc(apiKeys.createdAt)),
    accountPlan(db, user.id),
  ]);
  return { keys: rows.map(toView), allowed: hasApiAccess(plan, user.isAdmin), limit: API_KEY_LIMIT };
}

const keyLimitReached = () =>
  new ApiError(409, `An account may have at most ${API_KEY_LIMIT} API keys. Revoke one to create another.`, "api_key_limit_reached", undefined, {
    maxAllowed: API_KEY_LIMIT,
  });

/**
 * Creates a key for the account (Pro or admin: 402 otherwise), at most API_KEY_LIMIT live ones: the
 * insert counts the live keys in its own statement, so two requests at once cannot pass the cap,
 * and the audit entry is written only when the insert was.
 */
export async function createApiKey(db: Database, actor: AdminActor & { isAdmin: boolean }, body: ApiKeyCreateBody, appEnv: string) {
  if (!hasApiAccess(await accountPlan(db, actor.id), actor.isAdmin)) throw apiAccessRequired();
  const secret = newSecret(appEnv);
  const id = `key_${crypto.randomUUID().replace(/-/g, "").slice(0, 20)}`;
  const prefix = displayPrefix(secret);
  const createdAt = new Date().toISOString();
  const live = sql`(select count(*) from ${apiKeys} where ${apiKeys.userId} = ${actor.id} and ${apiKeys.revokedAt} is null)`;
  const inserted = sql`exists (select 1 from ${apiKeys} where ${apiKeys.id} = ${id})`;
  const [rows] = await db.batch([
    db
      .insert(apiKeys)
      .select(
        sql`select ${id}, ${actor.id}, ${body.name}, ${JSON.stringify(body.scopes)}, ${prefix}, ${await hashSecret(secret)}, ${createdAt}, null, null
          where ${live} < ${API_KEY_LIMIT}`,
      )
      .returning({ id: apiKeys.id }),
    auditStatement(db, actor, "create_api_key", { id: actor.id, email: actor.email }, { key_id: id, name: body.name, prefix, scopes: body.scopes }, inserted),
  ]);
  if (rows.length === 0) throw keyLimitReached();
  return { key: toView({ id, name: body.name, scopes: body.scopes, prefix, createdAt, lastUsedAt: null }), secret };
}

/** Revokes one of the account's live keys (404 for any other id): the next request with it is refused. */
export async function revokeApiKey(db: Database, actor: AdminActor, id: string) {
  const now = new Date().toISOString();
  const key = await db.query.apiKeys.findFirst({ where: and(eq(apiKeys.id, id), eq(apiKeys.userId, actor.id), isNull(apiKeys.revokedAt)) });
  if (!key) throw notFound("No such API key");
  const [revoked] = await db.batch([
    db
      .update(apiKeys)
      .set({ revokedAt: now })
      .where(and(eq(apiKeys.id, id), eq(apiKeys.userId, actor.id), isNull(apiKeys.revokedAt)))
      .returning({ id: apiKeys.id }),
    auditStatement(
      db,
      actor,
      "revoke_api_key",
      { id: actor.id, email: actor.email },
      { key_id: id, name: key.name, prefix: key.prefix },
      sql`exists (select 1 from ${apiKeys} where ${apiKeys.id} = ${id} and ${apiKeys.revokedAt} = ${now})`,
    ),
  ]);
  if (revoked.length === 0) throw notFound("No such API key");
}

/** A key as a /v1 request finds it. */
export type FoundKey = {
  id: string;
  scopes: ApiKeyScope[];
  revoked: boolean;
  lastUsedAt: string | null;
  /** The key's account; its shard is null for an account not placed yet (the middleware places it). */
  user: Omit<CurrentUser, "shard"> & { shard: string | null };
  plan: AccountPlan;
  /** This request's place in the key's rate-limit window. */
  rate: { count: number; allowed: boolean; resetSeconds: number };
};

/**
 * The key of this secret with its account, the account's plan and the key's rate-limit count, in
 * one batch (one D1 round trip); null when no key has this secret. A hit is counted only for a
 * live key, so unknown and revoked keys fill no counter.
 */
export async function findKey(db: Database, secret: string, nowMs = Date.now()): Promise<FoundKey | null> {
  const hash = await hashSecret(secret);
  const owner = sql`(select ${apiKeys.userId} from ${apiKeys} where ${apiKeys.secretHash} = ${hash})`;
  const rateKey = hash.slice(0, 32);
  const [keys, plans, hits] = await db.batch([
    db
      .select({
        id: apiKeys.id,
        scopes: apiKeys.scopes,
        revokedAt: apiKeys.revokedAt,
        lastUsedAt: apiKeys.lastUsedAt,
        userId: apiKeys.userId,
        email: profiles.email,
        username: profiles.username,
        company: profiles.company,
        firstName: profiles.firstName,
        lastName: profiles.lastName,
        isAdmin: profiles.isAdmin,
        shopwindowsInfo: profiles.shopwindowsInfo,
        callApp: profiles.callApp,
        shard: profiles.shard,
      })
      .from(apiKeys)
      .innerJoin(profiles, eq(profiles.id, apiKeys.userId))
      .where(eq(apiKeys.secretHash, hash)),
    db.select(PLAN_COLUMNS).from(subscriptions).where(eq(subscriptions.userId, owner)).orderBy(desc(subscriptions.updatedAt)),
    hitStatement(
      db,
      API_KEY_RATE_LIMIT,
      rateKey,
      sql`exists (select 1 from ${apiKeys} where ${apiKeys.secretHash} = ${hash} and ${apiKeys.revokedAt} is null)`,
      nowMs,
    ),
  ]);
  const k = keys[0];
  if (!k) return null;
  const window = API_KEY_RATE_LIMIT.windowSeconds;
  const windowStart = Math.floor(nowMs / 1000 / window) * window;
  return {
    id: k.id,
    scopes: k.scopes as ApiKeyScope[],
    revoked: k.revokedAt !== null,
    lastUsedAt: k.lastUsedAt,
    user: {
      id: k.userId,
      email: k.email,
      username: k.username,
      company: k.company,
      firstName: k.firstName,
      lastName: k.lastName,
      isAdmin: k.isAdmin,
      shopwindowsInfo: k.shopwindowsInfo,
      callApp: k.callApp,
      shard: k.shard,
    },
    plan: planOf(plans, new Date(nowMs)),
    rate: { count: hits[0]?.count ?? 0, allowed: withinLimit(API_KEY_RATE_LIMIT, hits), resetSeconds: Math.max(1, windowStart + window - Math.floor(nowMs / 1000)) },
  };
}

/** Last use is kept to the minute: a key used within the last minute is not written again. */
const LAST_USED_STEP_MS = 60_000;

/** The write that records the key's use, or null when its last use is recent enough to stand. */
export function touchStatement(db: Database, key: Pick<FoundKey, "id" | "lastUsedAt">, nowMs = Date.now()) {
  if (key.lastUsedAt && nowMs - Date.parse(key.lastUsedAt) < LAST_USED_STEP_MS) return null;
  return db.update(apiKeys).set({ lastUsedAt: new Date(nowMs).toISOString() }).where(eq(apiKeys.id, key.id));
}

/** Live keys of an account (tests and the limit's documentation). */
export async function liveKeyCount(db: Database, userId: string) {
  const [row] = await db.select({ n: count() }).from(apiKeys).where(and(eq(apiKeys.userId, userId), isNull(apiKeys.revokedAt)));
  return row?.n ?? 0;
}
