// The simulator's own routes: generated recordings, served only while the simulator is the voice adapter.
import { describe, expect, inject, it } from "vitest";
import { call } from "../test/helpers";
import { VAPI_STANDIN } from "../test/standins/vapi";

const vapiBindings = () => ({ VAPI_PRIVATE_KEY: VAPI_STANDIN.privateKey, VAPI_BASE_URL: inject("standins").vapi });

describe("GET /api/vapi/sim-recordings/:file", () => {
  it("serves a generated WAV for a simulated call in local mode only", async () => {
    const file = `sim_call_${crypto.randomUUID()}.wav`;
    const res = await call(`/api/vapi/sim-recordings/${file}`);
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toBe("audio/wav");
    const bad = await call("/api/vapi/sim-recordings/..%2Fsecret.wav");
    expect(bad.status).toBe(400);
    expect(bad.body.field).toBe("file");
    expect((await call(`/api/vapi/sim-recordings/${file}`, { bindings: vapiBindings() })).status).toBe(404);
  });
});
