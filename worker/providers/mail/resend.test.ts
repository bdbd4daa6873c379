// The Resend adapter against the Resend stand-in over real HTTP: the request Resend documents
// (POST /emails, Bearer key, from/to/subject/text/html/headers, Idempotency-Key), its answers and
// its errors, and the provider faults (500, hang).
import { describe, expect, inject, it } from "vitest";
import { ApiError } from "../../lib/errors";
import { ResendMail } from "./resend";

const base = () => inject("standins").resend;
let accounts = 0;
const newKey = () => `re_test_${Date.now().toString(36)}_${++accounts}`;
const adapter = (apiKey: string, over: Partial<ConstructorParameters<typeof ResendMail>[0]> = {}) =>
  new ResendMail({ apiKey, from: "Reports <reports@example.test>", baseUrl: base(), ...over });

type Sent = { id: string; from: string; to: string[]; subject: string; html?: string; text?: string; headers?: Record<string, string>; idempotencyKey: string | null };
const sentBy = async (apiKey: string) => ((await (await fetch(`${base()}/__sent/${apiKey}`)).json()) as { emails: Sent[] }).emails;

const mail = {
  to: "Staff@Store.example",
  subject: "Daily report for Monday, Sep 14, 2026",
  text: "Figures\n",
  html: "<p>Figures</p>",
  headers: { "List-Unsubscribe": "<https://app.example/u?token=x>", "List-Unsubscribe-Post": "List-Unsubscribe=One-Click" },
  kind: "daily_report",
  idempotencyKey: "daily-report/u1/2026-09-14",
};

async function failure(p: Promise<unknown>) {
  const e = await p.then(
    () => null,
    (err: unknown) => err,
  );
  expect(e).toBeInstanceOf(ApiError);
  return e as ApiError;
}

describe("ResendMail", () => {
  it("sends from the configured sender with the text, the HTML, the extra headers and the idempotency key", async () => {
    const key = newKey();
    await adapter(key).send(mail);
    const [sent] = await sentBy(key);
    expect(sent).toMatchObject({
      from: "Reports <reports@example.test>",
      to: ["Staff@Store.example"],
      subject: mail.subject,
      text: mail.text,
      html: mail.html,
      headers: mail.headers,
      idempotencyKey: mail.idempotencyKey,
    });
  });

  it("sends a mail without HTML or headers as text alone", async () => {
    const key = newKey();
    await adapter(key).send({ to: "a@b.example", subject: "S", text: "T", kind: "k" });
    const [sent] = await sentBy(key);
    expect(sent.html).toBeUndefined();
    expect(sent.headers).toBeUndefined();
    expect(sent.idempotencyKey).toBeNull();
  });

  it("sends a retried mail once: the same key is not delivered again, even with another payload", async () => {
    const key = newKey();
    await adapter(key).send(mail);
    await adapter(key).send(mail);
    await adapter(key).send({ ...mail, text: "another unsubscribe token" });
    expect(await sentBy(key)).toHaveLength(1);
  });

  it("refuses with Resend's message when the key is wrong, and names no key", async () => {
    const e = await failure(adapter("wrong-key").send(mail));
    expect(e.status).toBe(502);
    expect(e.message).toMatch(/^Resend: API key is invalid \(HTTP 403\)$/);
  });

  it("reports a 500 and a provider that never answers as a provider error", async () => {
    const key = newKey();
    await fetch(`${base()}/__faults`, { method: "POST", body: JSON.stringify({ key, mode: "500", count: 1 }) });
    expect((await failure(adapter(key).send(mail))).message).toMatch(/HTTP 500/);
    await fetch(`${base()}/__faults`, { method: "POST", body: JSON.stringify({ key, mode: "hang", count: 1 }) });
    expect((await failure(adapter(key, { timeoutMs: 300 }).send(mail))).message).toMatch(/no answer in time/);
    // After the faults, the same mail goes out once.
    await adapter(key).send(mail);
    expect(await sentBy(key)).toHaveLength(1);
  });
});
