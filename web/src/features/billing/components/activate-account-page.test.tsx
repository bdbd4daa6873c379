// /activate-account spends its link only when the password is submitted: opening the page (a mail
// scanner, a prefetch) spends nothing, and the token leaves the address bar at once.
import { fireEvent, render, screen, waitFor } from "@testing-library/react";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { ACTIVATION_TEXT } from "@shared/messages";
import { NEW_PASSWORD_TEXT } from "@shared/schemas/password";

const auth = { verifyOtp: vi.fn(), updateUser: vi.fn(), setSession: vi.fn() };
vi.mock("@web/lib/auth-client", () => ({ getAuthClient: async () => ({ auth }), getAppConfig: async () => ({ auth: { url: "", anonKey: "k" } }) }));
vi.mock("@tanstack/react-router", () => ({ useNavigate: () => vi.fn() }));

const { ActivateAccountPage } = await import("./activate-account-page");

const type = (label: string, value: string) => fireEvent.change(screen.getByLabelText(label), { target: { value } });

beforeEach(() => {
  window.history.replaceState(null, "", "/activate-account?email=a%40b.co#token_hash=th-1&type=invite");
  auth.verifyOtp.mockResolvedValue({ data: {}, error: null });
  auth.updateUser.mockResolvedValue({ data: {}, error: null });
});
afterEach(() => vi.clearAllMocks());

describe("ActivateAccountPage", () => {
  it("spends nothing on arrival, drops the token from the address, and spends it with the submitted password", async () => {
    render(<ActivateAccountPage search={{ email: "a@b.co" }} />);
    await screen.findByLabelText(ACTIVATION_TEXT.password);
    expect(auth.verifyOtp).not.toHaveBeenCalled();
    expect(auth.setSession).not.toHaveBeenCalled();
    expect(window.location.hash).toBe("");

    type(ACTIVATION_TEXT.password, "Secret123");
    type(ACTIVATION_TEXT.confirmPassword, "Secret123");
    fireEvent.click(screen.getByRole("button", { name: ACTIVATION_TEXT.activate }));
    await screen.findByText(ACTIVATION_TEXT.done);
    expect(auth.verifyOtp).toHaveBeenCalledWith({ token_hash: "th-1", type: "invite" });
    expect(auth.updateUser).toHaveBeenCalledWith({ password: "Secret123" });
    expect(auth.verifyOtp.mock.invocationCallOrder[0]).toBeLessThan(auth.updateUser.mock.invocationCallOrder[0]);
  });

  it("checks the password policy before spending the link, naming the rule", async () => {
    render(<ActivateAccountPage search={{ email: "a@b.co" }} />);
    await screen.findByLabelText(ACTIVATION_TEXT.password);
    type(ACTIVATION_TEXT.password, "lowercase1");
    type(ACTIVATION_TEXT.confirmPassword, "lowercase1");
    fireEvent.click(screen.getByRole("button", { name: ACTIVATION_TEXT.activate }));
    expect(await screen.findByText(NEW_PASSWORD_TEXT.characters)).toBeTruthy();
    expect(auth.verifyOtp).not.toHaveBeenCalled();
  });

  it("shows the server's refusal of a weak password by its rule, not 'Failed to update password'", async () => {
    const weak = Object.assign(new Error(NEW_PASSWORD_TEXT.tooShort), { code: "weak_password" });
    auth.updateUser.mockResolvedValue({ data: {}, error: weak });
    render(<ActivateAccountPage search={{ email: "a@b.co" }} />);
    await screen.findByLabelText(ACTIVATION_TEXT.password);
    type(ACTIVATION_TEXT.password, "Secret123");
    type(ACTIVATION_TEXT.confirmPassword, "Secret123");
    fireEvent.click(screen.getByRole("button", { name: ACTIVATION_TEXT.activate }));
    expect(await screen.findByText(NEW_PASSWORD_TEXT.tooShort)).toBeTruthy();
    expect(screen.queryByText(ACTIVATION_TEXT.updateFailed)).toBeNull();
  });

  it("offers a new link when the spent token had expired", async () => {
    auth.verifyOtp.mockResolvedValue({ data: {}, error: Object.assign(new Error("expired"), { code: "otp_expired" }) });
    render(<ActivateAccountPage search={{ email: "a@b.co" }} />);
    await screen.findByLabelText(ACTIVATION_TEXT.password);
    type(ACTIVATION_TEXT.password, "Secret123");
    type(ACTIVATION_TEXT.confirmPassword, "Secret123");
    fireEvent.click(screen.getByRole("button", { name: ACTIVATION_TEXT.activate }));
    expect(await screen.findByText(ACTIVATION_TEXT.expired)).toBeTruthy();
    await waitFor(() => expect(screen.getByRole("button", { name: ACTIVATION_TEXT.resend })).toBeTruthy());
    expect(auth.updateUser).not.toHaveBeenCalled();
  });
});
