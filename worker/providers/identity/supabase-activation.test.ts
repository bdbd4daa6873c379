// The Supabase identity adapter's buyer-account calls against the Supabase stand-in: the account is
// created with the admin API (no mail), the activation goes as Supabase's invite to /activate-account,
// and the first password is set through the admin API.
import { describe, expect, inject, it } from "vitest";
import { db, uniqueEmail } from "../../test/helpers";
import { SUPABASE_STANDIN } from "../../test/standins/supabase";
import { SupabaseIdentity } from "./supabase";

const standin = inject("standins").supabase;
let n = 0;

function project() {
  const prefix = `/p/activation-${Date.now().toString(36)}-${++n}`;
  const identity = new SupabaseIdentity({ url: `${standin}${prefix}`, serviceRoleKey: SUPABASE_STANDIN.serviceRoleKey }, db());
  const state = async () =>
    (await (await fetch(`${standin}/test/state?project=${encodeURIComponent(prefix)}`)).json()) as {
      users: { id: string; email: string; has_password?: boolean; email_confirmed_at: string | null; last_sign_in_at?: string | null }[];
      invites: { email: string; redirectTo: string | null }[];
    };
  return { identity, state, prefix };
}

describe("SupabaseIdentity buyer accounts", () => {
  it("creates the account once, unconfirmed and without mail; a second call finds it", async () => {
    const { identity, state } = project();
    const email = uniqueEmail("Buyer");
    const first = await identity.inviteAccount({ email, name: "Pat", company: "Acme" });
    expect(first.created).toBe(true);
    const again = await identity.inviteAccount({ email });
    expect(again).toEqual({ userId: first.userId, created: false });
    const s = await state();
    expect(s.users).toHaveLength(1);
    expect(s.users[0]).toMatchObject({ id: first.userId, email: email.toLowerCase(), email_confirmed_at: null });
    expect(s.invites).toHaveLength(0);
  });

  it("sends Supabase's invite to /activate-account, and sets the first password through the admin API", async () => {
    const { identity, state } = project();
    const email = uniqueEmail("invite");
    const { userId } = await identity.inviteAccount({ email });
    await identity.sendActivation({ userId, email, origin: "https://app.example" });
    const [invite] = (await state()).invites;
    expect(invite.email).toBe(email.toLowerCase());
    expect(invite.redirectTo).toBe(`https://app.example/activate-account?email=${encodeURIComponent(email)}`);
    expect(await identity.hasPassword(userId)).toBe(false);
    await identity.setFirstPassword(userId, "Secret123");
    expect((await state()).users[0]).toMatchObject({ has_password: true });
    expect((await state()).users[0].email_confirmed_at).not.toBeNull();
  });
});
