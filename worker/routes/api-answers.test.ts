// The answers the SPA compiles against (shared/schemas/answers.ts) are derived from the routes'
// declarations; every test's request helper (worker/test/helpers.ts `call`) checks each successful
// JSON answer of a declared route against its declared schema. These cases show that check at work.
import { describe, expect, it } from "vitest";
import { ROUTES } from "@shared/api/routes";
import { answerProblem, declaredRouteOf } from "../test/declared-answers";
import { call, signUpAndSignIn } from "../test/helpers";

describe("declared answers", () => {
  it("find the declaration of a URL, a static path before a pattern", () => {
    expect(declaredRouteOf("GET", "/api/call-logs/count?startDate=2026-01-01")?.key).toBe("GET /api/call-logs/count");
    expect(declaredRouteOf("get", "/api/agents/12")?.key).toBe("GET /api/agents/:id");
    expect(declaredRouteOf("GET", "/api/agents/12/extra")).toBeUndefined();
  });

  it("refuse an answer its route's schema does not allow", () => {
    expect(answerProblem("GET", "/api/config", 200, { auth: { mode: "local" } })).toMatch(/^GET \/api\/config answered 200/);
    expect(answerProblem("GET", "/api/local/mailbox", 200, { messages: "none" })).toMatch(/messages/);
    // Errors and undeclared routes are not answers of the declared shape.
    expect(answerProblem("GET", "/api/config", 404, { error: "x" })).toBeNull();
    expect(answerProblem("GET", "/api/no-such-route", 200, {})).toBeNull();
  });

  it("accept what the worker answers", async () => {
    const config = await call("/api/config");
    expect(config.status).toBe(200);
    expect(answerProblem("GET", "/api/config", config.status, config.body)).toBeNull();
    const a = await signUpAndSignIn();
    for (const path of ["/api/profile", "/api/agents", "/api/usage-stats", "/api/call-logs", "/api/twilio/my-numbers", "/api/admin/config/phone-limit"]) {
      const res = await call(path, { token: a.accessToken });
      expect(res.status, path).toBe(200);
      expect(answerProblem("GET", path, res.status, res.body), path).toBeNull();
    }
  });

  it("declare every answer the SPA reads as JSON of a schema", () => {
    const untypedApi = Object.entries(ROUTES)
      .filter(([key, declared]) => key.includes(" /api/") && declared.answer.kind === "json" && declared.answer.schema.safeParse(Symbol()).success)
      .map(([key]) => key);
    // Machine callers' acknowledgements and the development tools' answers are not read by the SPA.
    expect(untypedApi.filter((key) => !/\/api\/(webhooks|local)\/|\/api\/(health|openapi\.json)$/.test(key))).toEqual([]);
  });
});
