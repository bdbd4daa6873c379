// The forms' rules of docs/product/errors-and-texts.md#validation-messages for checkout, the password after payment and activation.
import { describe, expect, it } from "vitest";
import { ACTIVATION_TEXT, CHECKOUT_TEXT, PAYMENT_TEXT } from "../messages";
import { activationPasswordError, leadBody, leadFormSchema, paymentPasswordError } from "./billing";

const lead = { first_name: "A", last_name: "B", email: "a@b.co", phone: "3055550142", company: "", quantity: "1" };
const firstError = (v: Record<string, unknown>) => {
  const r = leadFormSchema.safeParse(v);
  return r.success ? null : { field: r.error.issues[0].path[0], message: r.error.issues[0].message };
};

describe("lead form", () => {
  it("accepts a complete form", () => expect(firstError(lead)).toBeNull());
  it("names each broken rule with the spec's message", () => {
    expect(firstError({ ...lead, first_name: " " })).toEqual({ field: "first_name", message: CHECKOUT_TEXT.firstNameRequired });
    expect(firstError({ ...lead, last_name: "" })).toEqual({ field: "last_name", message: CHECKOUT_TEXT.lastNameRequired });
    expect(firstError({ ...lead, email: "a@b" })).toEqual({ field: "email", message: "Please enter a valid email (e.g., name@example.com)." });
    expect(firstError({ ...lead, phone: "305555014" })).toEqual({ field: "phone", message: "Phone must have exactly 10 digits." });
    expect(firstError({ ...lead, phone: "30555501421" })?.field).toBe("phone");
    expect(firstError({ ...lead, quantity: "0" })?.field).toBe("quantity");
  });
});

describe("lead payload", () => {
  const payload = (submitted_at: string) => ({
    email: "a@b.co",
    phone: "3055550142",
    first_name: "A",
    last_name: "B",
    lead_source: "website",
    metadata: { product_type: "basic", product_name: "Basic", price_id: "price_basic", is_trial: false, submitted_at },
  });
  it("bounds submitted_at to the years 2000-2099 like every other date, naming the field", () => {
    expect(leadBody.safeParse(payload("2026-03-07T14:30:00-05:00")).success).toBe(true);
    for (const edge of ["0000-01-01T00:00:00Z", "1999-12-31T23:59:59Z", "9999-12-31T00:00:00Z"]) {
      const r = leadBody.safeParse(payload(edge));
      expect(r.success).toBe(false);
      expect(r.error?.issues[0].path).toEqual(["metadata", "submitted_at"]);
    }
  });
});

describe("password after payment", () => {
  it("checks presence, match, length, then upper-case and digit, in that order", () => {
    expect(paymentPasswordError("", "")).toBe(PAYMENT_TEXT.bothRequired);
    expect(paymentPasswordError("Secret123", "")).toBe("Both password fields are required");
    expect(paymentPasswordError("Secret123", "Secret124")).toBe("Passwords do not match");
    expect(paymentPasswordError("Sec1", "Sec1")).toBe("Password must be at least 8 characters long");
    expect(paymentPasswordError("secret123", "secret123")).toBe("Password must contain at least 1 uppercase letter and 1 number");
    expect(paymentPasswordError("Secretabc", "Secretabc")).toBe(PAYMENT_TEXT.strength);
    expect(paymentPasswordError("Secret123", "Secret123")).toBeNull();
  });
});

describe("activation password", () => {
  it("needs 8 characters and the same confirmation, with one message, then the policy's uppercase letter and digit", () => {
    expect(activationPasswordError("", "")).toBe(ACTIVATION_TEXT.invalidPassword);
    expect(activationPasswordError("1234567", "1234567")).toBe("Passwords must match and be at least 8 characters.");
    expect(activationPasswordError("Secret123", "Secret124")).toBe(ACTIVATION_TEXT.invalidPassword);
    // What the server refuses is refused here first, naming the rule.
    expect(activationPasswordError("12345678", "12345678")).toBe("Password must contain at least 1 uppercase letter and 1 number");
    expect(activationPasswordError("Secret123", "Secret123")).toBeNull();
  });
});
