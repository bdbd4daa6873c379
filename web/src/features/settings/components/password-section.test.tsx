import { QueryClientProvider } from "@tanstack/react-query";
import { fireEvent, render, screen, waitFor } from "@testing-library/react";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { AUTH_TEXT, SETTINGS_TEXT } from "@shared/messages";
import { CURRENT_PASSWORD_REQUIRED, NEW_PASSWORD_TEXT } from "@shared/schemas/password";
import { createQueryClient } from "@web/lib/query-client";
import { PasswordSection } from "./password-section";

const auth = vi.hoisted(() => ({
  updatePassword: vi.fn<(password: string, currentPassword?: string) => Promise<void>>(),
  requestPasswordReset: vi.fn<(email: string) => Promise<void>>(),
}));
vi.mock("@web/lib/auth/auth-provider", () => ({ useAuth: () => auth }));

const EMAIL = "owner@store.example";

beforeEach(() => {
  // The app's config (whether a local mailbox exists) is not needed here.
  vi.stubGlobal("fetch", vi.fn(async () => new Response("not found", { status: 404 })));
});
afterEach(() => {
  vi.unstubAllGlobals();
  vi.clearAllMocks();
});

const renderSection = () =>
  render(
    <QueryClientProvider client={createQueryClient()}>
      <PasswordSection email={EMAIL} />
    </QueryClientProvider>,
  );
const field = (label: string) => screen.getByLabelText(label, { exact: true }) as HTMLInputElement;
const type = (label: string, value: string) => fireEvent.change(field(label), { target: { value } });
const submit = () => fireEvent.click(screen.getByRole("button", { name: SETTINGS_TEXT.changePassword }));

describe("PasswordSection", () => {
  it("asks for the current password and shows the password policy beside the new one", () => {
    renderSection();
    expect(screen.getByRole("heading", { name: SETTINGS_TEXT.passwordSection })).toBeTruthy();
    expect(field(SETTINGS_TEXT.currentPasswordLabel).autocomplete).toBe("current-password");
    const fresh = field(AUTH_TEXT.newPasswordLabel);
    expect(fresh.autocomplete).toBe("new-password");
    const hint = document.getElementById(fresh.getAttribute("aria-describedby") ?? "");
    expect(hint?.textContent).toBe(AUTH_TEXT.newPasswordRules);
    expect(field(AUTH_TEXT.confirmNewPasswordLabel).type).toBe("password");
  });

  it("refuses a missing current password, a password against the policy and a mismatch before asking the server", async () => {
    renderSection();
    type(AUTH_TEXT.newPasswordLabel, "lowercase-only-1");
    type(AUTH_TEXT.confirmNewPasswordLabel, "lowercase-only-1");
    submit();
    expect(await screen.findByText(CURRENT_PASSWORD_REQUIRED)).toBeTruthy();
    expect(screen.getByText(NEW_PASSWORD_TEXT.characters)).toBeTruthy();
    type(SETTINGS_TEXT.currentPasswordLabel, "Old-pass-1");
    type(AUTH_TEXT.newPasswordLabel, "Short-1");
    type(AUTH_TEXT.confirmNewPasswordLabel, "Short-1");
    expect(await screen.findByText(NEW_PASSWORD_TEXT.tooShort)).toBeTruthy();
    type(AUTH_TEXT.newPasswordLabel, "New-pass-2026");
    type(AUTH_TEXT.confirmNewPasswordLabel, "New-pass-2027");
    expect(await screen.findByText(NEW_PASSWORD_TEXT.mismatch)).toBeTruthy();
    submit();
    await waitFor(() => expect(screen.getByText(NEW_PASSWORD_TEXT.mismatch)).toBeTruthy());
    expect(auth.updatePassword).not.toHaveBeenCalled();
  });

  it("changes the password with the current one, then clears the fields", async () => {
    auth.updatePassword.mockResolvedValue(undefined);
    renderSection();
    type(SETTINGS_TEXT.currentPasswordLabel, "Old-pass-1");
    type(AUTH_TEXT.newPasswordLabel, "New-pass-2026");
    type(AUTH_TEXT.confirmNewPasswordLabel, "New-pass-2026");
    submit();
    await waitFor(() => expect(auth.updatePassword).toHaveBeenCalledWith("New-pass-2026", "Old-pass-1"));
    await waitFor(() => expect(field(SETTINGS_TEXT.currentPasswordLabel).value).toBe(""));
    expect(field(AUTH_TEXT.newPasswordLabel).value).toBe("");
  });

  it("shows a wrong current password under that field", async () => {
    auth.updatePassword.mockRejectedValue(Object.assign(new Error("Current password is incorrect."), { code: "invalid_credentials" }));
    renderSection();
    type(SETTINGS_TEXT.currentPasswordLabel, "Wrong-pass-1");
    type(AUTH_TEXT.newPasswordLabel, "New-pass-2026");
    type(AUTH_TEXT.confirmNewPasswordLabel, "New-pass-2026");
    submit();
    expect(await screen.findByText("Current password is incorrect.")).toBeTruthy();
    expect(field(SETTINGS_TEXT.currentPasswordLabel).getAttribute("aria-invalid")).toBe("true");
  });

  it("'Forgot password?' mails a recovery link to the account's address once asked, and says so", async () => {
    auth.requestPasswordReset.mockResolvedValue(undefined);
    renderSection();
    fireEvent.click(screen.getByRole("button", { name: AUTH_TEXT.forgotPassword }));
    expect(screen.getByText(SETTINGS_TEXT.forgotOffer(EMAIL))).toBeTruthy();
    expect(auth.requestPasswordReset).not.toHaveBeenCalled();
    fireEvent.click(screen.getByRole("button", { name: AUTH_TEXT.sendResetLink }));
    const sent = (await screen.findByText(SETTINGS_TEXT.resetSent(EMAIL))).closest("[role=status]");
    expect(sent?.textContent).toContain(AUTH_TEXT.resetSentTitle);
    expect(auth.requestPasswordReset).toHaveBeenCalledWith(EMAIL);
  });
});
