// /v1/webhook-endpoints: the operations of Settings → Webhooks with an API key holding webhooks:write,
// in /v1's shapes (snake_case, { data, next_cursor }, its error object), on the same services.
import { describe, expect, it } from "vitest";
import { WEBHOOK_TEST_RATE } from "@shared/webhooks";
import { and, eq, like } from "drizzle-orm";
import { adminAuditLog } from "../../db/schema";
import { call, db, signUpAndSignIn } from "../../test/helpers";

const recorded: unknown[] = [];
const bindings = { WEBHOOK_QUEUE: { send: (b: unknown) => Promise.resolve(void recorded.push(b)), sendBatch: (m: { body: unknown }[]) => Promise.resolve(void recorded.push(...[...m].map((x) => x.body))) } };

async function keyFor(scopes: string[]) {
  const s = await signUpAndSignIn();
  const res = await call("/api/api-keys", { method: "POST", token: s.accessToken, json: { name: "Hooks", scopes } });
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return { ...s, key: res.body.secret as string };
}

describe("/v1/webhook-endpoints", () => {
  it("creates, lists, tests, logs and resends with webhooks:write; the secret only on creation", async () => {
    const { key, accessToken } = await keyFor(["webhooks:write"]);
    const made = await call("/v1/webhook-endpoints", { method: "POST", token: key, json: { url: "https://hooks.example.com/v1", events: ["call.ended"] }, bindings });
    expect(made.status, JSON.stringify(made.body)).toBe(201);
    expect(made.body).toMatchObject({ url: "https://hooks.example.com/v1", events: ["call.ended"], enabled: true, description: "", secret: expect.stringMatching(/^whsec_/) });
    const id = made.body.id as string;
    const list = await call("/v1/webhook-endpoints", { token: key });
    expect(list.body).toEqual({ data: [expect.objectContaining({ id, secret_prefix: expect.any(String) })], next_cursor: null });
    expect(JSON.stringify(list.body)).not.toContain(made.body.secret);
    // The dashboard sees the same endpoint.
    expect((await call("/api/webhook-endpoints", { token: accessToken })).body.endpoints[0].id).toBe(id);

    const test = await call(`/v1/webhook-endpoints/${id}/test`, { method: "POST", token: key, bindings });
    expect(test.status).toBe(202);
    const deliveryId = test.body.delivery_id as string;
    const log = await call(`/v1/webhook-endpoints/${id}/deliveries`, { token: key });
    expect(log.body).toMatchObject({ data: [{ id: deliveryId, event_type: "test", status: "pending", attempt_log: [] }], next_cursor: null });
    // Still queued: 409 in /v1's error shape.
    const resend = await call(`/v1/webhook-endpoints/${id}/deliveries/${deliveryId}/resend`, { method: "POST", token: key, bindings });
    expect(resend.status).toBe(409);
    expect(resend.body.error).toMatchObject({ code: "conflict", message: "This delivery is already queued; its next attempt has not finished yet." });

    const rotated = await call(`/v1/webhook-endpoints/${id}/rotate-secret`, { method: "POST", token: key });
    expect(rotated.body.secret).not.toBe(made.body.secret);
    expect(rotated.body.previous_secret_expires_at).toEqual(expect.any(String));
    const patched = await call(`/v1/webhook-endpoints/${id}`, { method: "PATCH", token: key, json: { enabled: false } });
    expect(patched.body).toMatchObject({ enabled: false, disabled_reason: "Disabled by its owner" });
    expect((await call(`/v1/webhook-endpoints/${id}`, { method: "DELETE", token: key })).body).toEqual({ id, deleted: true });
    expect((await call(`/v1/webhook-endpoints/${id}`, { token: key })).status).toBe(404);
  });

  it("test events share the account's limit with the dashboard: 429 with Retry-After in /v1's error shape", async () => {
    const { key, accessToken } = await keyFor(["webhooks:write"]);
    const id = (await call("/v1/webhook-endpoints", { method: "POST", token: key, json: { url: "https://hooks.example.com/v1", events: ["test"] }, bindings })).body.id as string;
    const burst = 3 * WEBHOOK_TEST_RATE.limit;
    const answers = await Promise.all(
      Array.from({ length: burst }, (_, i) =>
        i % 2 === 0
          ? call(`/v1/webhook-endpoints/${id}/test`, { method: "POST", token: key, bindings })
          : call(`/api/webhook-endpoints/${id}/test`, { method: "POST", token: accessToken, bindings }),
      ),
    );
    // One minute's window (two, if the burst straddles a minute's end), for both ways in together.
    const accepted = answers.filter((r) => r.status === 202).length;
    expect(accepted).toBeGreaterThanOrEqual(WEBHOOK_TEST_RATE.limit);
    expect(accepted).toBeLessThanOrEqual(2 * WEBHOOK_TEST_RATE.limit);
    const refusedV1 = answers.filter((r, i) => i % 2 === 0 && r.status === 429);
    expect(accepted + answers.filter((r) => r.status === 429).length).toBe(burst);
    for (const r of refusedV1) {
      expect(r.body.error).toMatchObject({ code: "rate_limited", message: expect.stringContaining(`At most ${WEBHOOK_TEST_RATE.limit} test events a minute`) });
      expect(Number(r.headers.get("retry-after"))).toBeGreaterThanOrEqual(1);
    }
  });

  it("every change through a key goes into the audit log with the key's id", async () => {
    const { key, userId, accessToken } = await keyFor(["webhooks:write"]);
    const keyId = ((await call("/api/api-keys", { token: accessToken })).body.keys as { id: string }[])[0].id;
    const id = (await call("/v1/webhook-endpoints", { method: "POST", token: key, json: { url: "https://hooks.example.com/v1", events: ["call.ended"] }, bindings })).body.id as string;
    await call(`/v1/webhook-endpoints/${id}`, { method: "PATCH", token: key, json: { events: ["call.ended", "call.started"] } });
    await call(`/v1/webhook-endpoints/${id}/rotate-secret`, { method: "POST", token: key });
    await call(`/v1/webhook-endpoints/${id}`, { method: "DELETE", token: key });
    const rows = await db().select().from(adminAuditLog).where(and(eq(adminAuditLog.actorId, userId), like(adminAuditLog.action, "%webhook%"))).orderBy(adminAuditLog.id);
    expect(rows.map((r) => [r.action, r.detail.endpoint_id, r.detail.api_key_id])).toEqual([
      ["create_webhook_endpoint", id, keyId],
      ["update_webhook_endpoint", id, keyId],
      ["rotate_webhook_secret", id, keyId],
      ["delete_webhook_endpoint", id, keyId],
    ]);
    expect(rows[1].detail.changes).toEqual({ events: { before: ["call.ended"], after: ["call.ended", "call.started"] } });
  });

  it("refuses a key without webhooks:write, and a refused URL names the field", async () => {
    const { key } = await keyFor(["calls:read"]);
    const refused = await call("/v1/webhook-endpoints", { token: key });
    expect(refused.status).toBe(403);
    expect(refused.body.error).toMatchObject({ code: "insufficient_scope" });
    const writer = await keyFor(["webhooks:write"]);
    const bad = await call("/v1/webhook-endpoints", { method: "POST", token: writer.key, json: { url: "https://[::1]/x", events: ["test"] } });
    expect(bad.status).toBe(400);
    expect(bad.body.error).toMatchObject({ code: "validation_error", field: "url", message: "The URL points to a loopback address" });
  });
});
