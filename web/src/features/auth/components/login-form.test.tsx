import { fireEvent, render, screen, waitFor } from "@testing-library/react";
import { describe, expect, it, vi } from "vitest";
import { AUTH_TEXT, VALIDATION } from "@shared/messages";
import { LoginForm } from "./login-form";

const type = (label: string, value: string) => fireEvent.change(screen.getByLabelText(label), { target: { value } });

describe("LoginForm", () => {
  it("shows each validation message as the person types, under its field", async () => {
    render(<LoginForm onSubmit={vi.fn(async () => {})} />);

    type(AUTH_TEXT.emailLabel, "not-an-email");
    expect(await screen.findByText(VALIDATION.invalidEmail)).toBeTruthy();
    expect(screen.getByLabelText(AUTH_TEXT.emailLabel).getAttribute("aria-invalid")).toBe("true");

    type(AUTH_TEXT.passwordLabel, "12345");
    expect(await screen.findByText(VALIDATION.passwordMin)).toBeTruthy();

    type(AUTH_TEXT.emailLabel, "owner@store.example");
    await waitFor(() => expect(screen.queryByText(VALIDATION.invalidEmail)).toBeNull());
    type(AUTH_TEXT.passwordLabel, "123456");
    await waitFor(() => expect(screen.queryByText(VALIDATION.passwordMin)).toBeNull());
  });

  it("submits the typed credentials and prefills the remembered email", async () => {
    const onSubmit = vi.fn(async () => {});
    render(<LoginForm defaultEmail="owner@store.example" onSubmit={onSubmit} />);
    expect((screen.getByLabelText(AUTH_TEXT.emailLabel) as HTMLInputElement).value).toBe("owner@store.example");
    type(AUTH_TEXT.passwordLabel, "secret1");
    fireEvent.click(screen.getByRole("button", { name: AUTH_TEXT.signInButton }));
    await waitFor(() => expect(onSubmit).toHaveBeenCalledWith({ email: "owner@store.example", password: "secret1" }));
  });

  it("does not submit invalid values", async () => {
    const onSubmit = vi.fn(async () => {});
    render(<LoginForm onSubmit={onSubmit} />);
    fireEvent.click(screen.getByRole("button", { name: AUTH_TEXT.signInButton }));
    expect(await screen.findByText(VALIDATION.invalidEmail)).toBeTruthy();
    expect(screen.getByText(VALIDATION.passwordMin)).toBeTruthy();
    expect(onSubmit).not.toHaveBeenCalled();
  });
});
