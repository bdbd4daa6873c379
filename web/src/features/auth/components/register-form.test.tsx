import { fireEvent, render, screen, waitFor } from "@testing-library/react";
import { describe, expect, it, vi } from "vitest";
import { AUTH_TEXT, VALIDATION } from "@shared/messages";
import { NEW_PASSWORD_TEXT } from "@shared/schemas/password";
import { RegisterForm } from "./register-form";

const type = (label: string, value: string) => fireEvent.change(screen.getByLabelText(label), { target: { value } });
const errorOf = (label: string) => {
  const input = screen.getByLabelText(label);
  // The error is the first description when there is one (the hint, if any, follows or stands alone).
  const id = input.getAttribute("aria-describedby")?.split(" ")[0];
  return id?.endsWith("-error") ? document.getElementById(id)?.textContent : undefined;
};

describe("RegisterForm", () => {
  it("shows each validation message as the person types, under its own field", async () => {
    render(<RegisterForm onSubmit={vi.fn(async () => {})} />);

    type(AUTH_TEXT.emailLabel, "owner@");
    await waitFor(() => expect(errorOf(AUTH_TEXT.emailLabel)).toBe(VALIDATION.invalidEmail));

    type(AUTH_TEXT.usernameLabel, "ab");
    await waitFor(() => expect(errorOf(AUTH_TEXT.usernameLabel)).toBe(VALIDATION.usernameMin));

    type(AUTH_TEXT.companyLabel, "x");
    type(AUTH_TEXT.companyLabel, "");
    await waitFor(() => expect(errorOf(AUTH_TEXT.companyLabel)).toBe(VALIDATION.companyRequired));

    // The one password policy, the server's: 8 characters, then an uppercase letter and a digit.
    type(AUTH_TEXT.passwordLabel, "Sec1");
    await waitFor(() => expect(errorOf(AUTH_TEXT.passwordLabel)).toBe(NEW_PASSWORD_TEXT.tooShort));
    type(AUTH_TEXT.passwordLabel, "secret12");
    await waitFor(() => expect(errorOf(AUTH_TEXT.passwordLabel)).toBe(NEW_PASSWORD_TEXT.characters));

    type(AUTH_TEXT.confirmPasswordLabel, "123");
    await waitFor(() => expect(errorOf(AUTH_TEXT.confirmPasswordLabel)).toBe(NEW_PASSWORD_TEXT.tooShort));

    type(AUTH_TEXT.passwordLabel, "Secret11");
    type(AUTH_TEXT.confirmPasswordLabel, "Secret22");
    await waitFor(() => expect(errorOf(AUTH_TEXT.confirmPasswordLabel)).toBe(VALIDATION.passwordsMismatch));
    expect(errorOf(AUTH_TEXT.passwordLabel)).toBeUndefined();

    // Fixing the password clears the mismatch shown on the confirmation.
    type(AUTH_TEXT.passwordLabel, "Secret22");
    await waitFor(() => expect(errorOf(AUTH_TEXT.confirmPasswordLabel)).toBeUndefined());
  });

  it("shows the password rules under the password field", () => {
    render(<RegisterForm onSubmit={vi.fn(async () => {})} />);
    expect(screen.getByText(AUTH_TEXT.newPasswordRules)).toBeTruthy();
  });

  it("submits the fields the sign-up needs", async () => {
    const onSubmit = vi.fn(async () => {});
    render(<RegisterForm onSubmit={onSubmit} />);
    type(AUTH_TEXT.emailLabel, "owner@store.example");
    type(AUTH_TEXT.usernameLabel, "owner");
    type(AUTH_TEXT.companyLabel, "Tyler Motors");
    type(AUTH_TEXT.passwordLabel, "Secret11");
    type(AUTH_TEXT.confirmPasswordLabel, "Secret11");
    fireEvent.click(screen.getByRole("button", { name: AUTH_TEXT.createAccount }));
    await waitFor(() =>
      expect(onSubmit).toHaveBeenCalledWith({
        email: "owner@store.example",
        username: "owner",
        companyName: "Tyler Motors",
        password: "Secret11",
        confirmPassword: "Secret11",
      }),
    );
  });
});
