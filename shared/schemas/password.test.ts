import { describe, expect, it } from "vitest";
import { NEW_PASSWORD_TEXT, newPasswordFormSchema, newPasswordProblem } from "./password";

const messages = (password: string, confirmPassword: string) => {
  const r = newPasswordFormSchema.safeParse({ password, confirmPassword });
  return r.success ? [] : r.error.issues.map((i) => `${i.path.join(".")}: ${i.message}`);
};

describe("new password rules (docs/product/errors-and-texts.md#validation-messages)", () => {
  it("answers spec 2's message for each broken rule, in order", () => {
    expect(messages("", "")).toEqual([`password: ${NEW_PASSWORD_TEXT.bothRequired}`]);
    expect(messages("Abcdefg1", "")).toEqual([`confirmPassword: ${NEW_PASSWORD_TEXT.bothRequired}`]);
    expect(messages("Abcdefg1", "Abcdefg2")).toEqual([`confirmPassword: ${NEW_PASSWORD_TEXT.mismatch}`]);
    expect(messages("Abc1", "Abc1")).toEqual([`password: ${NEW_PASSWORD_TEXT.tooShort}`]);
    expect(messages("abcdefg1", "abcdefg1")).toEqual([`password: ${NEW_PASSWORD_TEXT.characters}`]);
    expect(messages("Abcdefgh", "Abcdefgh")).toEqual([`password: ${NEW_PASSWORD_TEXT.characters}`]);
    expect(messages("Abcdefg1", "Abcdefg1")).toEqual([]);
  });

  it("names GoTrue's weak_password reason for the server", () => {
    expect(newPasswordProblem("Ab1")?.reason).toBe("length");
    expect(newPasswordProblem("abcdefgh1")?.reason).toBe("characters");
    expect(newPasswordProblem("Abcdefgh1")).toBeNull();
  });
});
