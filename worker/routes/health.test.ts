import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { call } from "../test/helpers";

describe("GET /api/health", () => {
  it("reports the database, the migration level and the local adapters", async () => {
    const res = await call("/api/health");
    expect(res.status).toBe(200);
    expect(res.body.database).toBe("ok");
    // The newest migration applied, whichever branch added it.
    expect(res.body.migration).toBe(env.TEST_MIGRATIONS.at(-1)!.name);
    expect(res.body.providers).toMatchObject({ identity: "local", mail: "local" });
    expect(res.headers.get("x-request-id")).toBe(res.body.requestId);
  });

  it("answers unknown API paths with a JSON 404", async () => {
    const res = await call("/api/no-such-thing");
    expect(res.status).toBe(404);
    expect(res.body).toMatchObject({ code: "not_found" });
    expect(typeof res.body.error).toBe("string");
  });
});
