// The one password policy with Supabase (decision 039): Supabase Auth, set as the README's deploy
// section says, refuses a direct sign-up (from the browser, past our forms) whose password breaks the
// policy, with GoTrue's 422 weak_password; and the real adapter surfaces that refusal of a password it
// sets as a refusal of the password field, never as an outage of the account service.
import { describe, expect, inject, it } from "vitest";
import { newPasswordProblem } from "@shared/schemas/password";
import { ApiError } from "../../lib/errors";
import { db, uniqueEmail } from "../../test/helpers";
import { SUPABASE_PASSWORD_SETTINGS, SUPABASE_STANDIN } from "../../test/standins/supabase";
import { SupabaseIdentity } from "./supabase";

const standin = inject("standins").supabase;
let n = 0;

function project() {
  const prefix = `/p/password-${Date.now().toString(36)}-${++n}`;
  const identity = new SupabaseIdentity({ url: `${standin}${prefix}`, anonKey: SUPABASE_STANDIN.anonKey, serviceRoleKey: SUPABASE_STANDIN.serviceRoleKey }, db());
  /** A sign-up as supabase-js sends it from the browser: the anon key, nothing of ours in between. */
  const signUp = async (password: string) => {
    const res = await fetch(`${standin}${prefix}/auth/v1/signup`, {
      method: "POST",
      headers: { apikey: SUPABASE_STANDIN.anonKey, authorization: `Bearer ${SUPABASE_STANDIN.anonKey}`, "content-type": "application/json" },
      body: JSON.stringify({ email: uniqueEmail("direct"), password }),
    });
    return { status: res.status, body: (await res.json()) as { id?: string; error_code?: string; msg?: string; weak_password?: { reasons: string[] } } };
  };
  const settings = (password_required_characters: string) =>
    fetch(`${standin}/test/password-policy`, {
      method: "POST",
      body: JSON.stringify({ project: prefix, password_min_length: SUPABASE_PASSWORD_SETTINGS.password_min_length, password_required_characters }),
    });
  const state = async () => (await (await fetch(`${standin}/test/state?project=${encodeURIComponent(prefix)}`)).json()) as { users: { id: string; has_password?: boolean }[] };
  return { identity, signUp, settings, state };
}

/** Passwords around every edge of the policy: length, the uppercase letter, the digit, and neither rule's other characters. */
const SAMPLES = ["", "Ab1", "Abcdef1", "Abcdefg1", "abcdefg1", "ABCDEFG1", "Abcdefgh", "12345678", "abcdefgh", "PASSWORD", "Pass word 1", "ÄÖÜäöü12", "Élan-vital-9", "Secret123", "ab1Ab1ab1"];

describe("Supabase Auth set as the README says", () => {
  it("refuses a direct sign-up whose password the policy refuses, with 422 weak_password naming the rule broken", async () => {
    const p = project();
    for (const password of SAMPLES.filter((pw) => pw && newPasswordProblem(pw))) {
      const res = await p.signUp(password);
      expect({ password, status: res.status, code: res.body.error_code }).toEqual({ password, status: 422, code: "weak_password" });
      expect(res.body.weak_password?.reasons).toContain(newPasswordProblem(password)!.reason);
    }
    const ok = await p.signUp("Secret123");
    expect(ok.status).toBe(200);
    expect(ok.body.id).toEqual(expect.any(String));
  });

  it("accepts every password the policy accepts except an all-capitals one, the nearest choice hosted Supabase offers; self-hosted GoTrue's setting is the policy exactly", async () => {
    const hosted = project();
    const accepted = SAMPLES.filter((pw) => !newPasswordProblem(pw));
    const refusedByHosted: string[] = [];
    for (const password of accepted) if ((await hosted.signUp(password)).status === 422) refusedByHosted.push(password);
    expect(refusedByHosted).toEqual(["ABCDEFG1"]);

    const selfHosted = project();
    await selfHosted.settings("ABCDEFGHIJKLMNOPQRSTUVWXYZ:0123456789");
    for (const password of SAMPLES.filter(Boolean)) {
      const { status } = await selfHosted.signUp(password);
      expect({ password, refused: status === 422 }).toEqual({ password, refused: newPasswordProblem(password) !== null });
    }
  });
});

describe("SupabaseIdentity.setFirstPassword", () => {
  it("surfaces Supabase's weak_password as a 422 refusal of the password field in Supabase's words, and sets nothing", async () => {
    const p = project();
    const { userId } = await p.identity.inviteAccount({ email: uniqueEmail("caps") });
    const err = await p.identity.setFirstPassword(userId, "ABCDEFG1").then(
      () => null,
      (e: unknown) => e,
    );
    expect(err).toBeInstanceOf(ApiError);
    expect(err).toMatchObject({ status: 422, code: "weak_password", field: "password" });
    expect((err as ApiError).message).toContain("abcdefghijklmnopqrstuvwxyz");
    expect((await p.state()).users[0].has_password).toBeFalsy();
    await p.identity.setFirstPassword(userId, "Abcdefg1");
    expect((await p.state()).users[0].has_password).toBe(true);
  });
});
