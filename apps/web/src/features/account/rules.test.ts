import { describe, expect, it } from "vitest";
import { ApiError } from "../../shared/api/errors.ts";
import { checkIdentity, type FindPasswordForm, isCode, isEmail, suggestedName, validateFindPassword } from "./rules.ts";
import { signInFailure } from "./sign-in-failure.ts";

const good: FindPasswordForm = {
  mode: "email",
  account: " ana@example.com ",
  country: "CN",
  code: "123456",
  password: "secret1",
  confirm: "secret1",
};

describe("Find password rules (spec §5)", () => {
  it("accepts a complete form by e-mail or by phone", () => {
    expect(validateFindPassword(good)).toBeNull();
    expect(validateFindPassword({ ...good, mode: "phone", account: "13800138000" })).toBeNull();
  });

  it("answers the first problem in field order", () => {
    expect(validateFindPassword({ ...good, account: "  " })).toBe("register.accountRequired");
    expect(validateFindPassword({ ...good, account: "ana@" })).toBe("findPassword.emailInvalid");
    expect(validateFindPassword({ ...good, mode: "phone", account: "12345" })).toBe("country.phoneInvalid");
    expect(validateFindPassword({ ...good, mode: "phone", account: "13800138000", country: "GB" })).toBe(
      "country.phoneInvalid",
    );
    expect(validateFindPassword({ ...good, code: "" })).toBe("register.codeRequired");
    expect(validateFindPassword({ ...good, code: "12345" })).toBe("findPassword.codeInvalid");
    expect(validateFindPassword({ ...good, password: "", confirm: "" })).toBe("register.passwordRequired");
    expect(validateFindPassword({ ...good, password: "12345", confirm: "12345" })).toBe("register.passwordTooShort");
    expect(validateFindPassword({ ...good, confirm: "" })).toBe("register.confirmRequired");
    expect(validateFindPassword({ ...good, confirm: "secret2" })).toBe("register.passwordsMismatch");
  });

  it("checks identities and codes", () => {
    expect(isEmail("a@b.io")).toBe(true);
    expect(isEmail("a@b")).toBe(false);
    expect(isCode("000000")).toBe(true);
    expect(isCode("00000a")).toBe(false);
    expect(checkIdentity("email", " a@b.io ", "CN")).toEqual({ ok: true, email: "a@b.io" });
    expect(checkIdentity("phone", "0612345678", "FR")).toEqual({
      ok: true,
      phone: { nationalNumber: "612345678", countryCode: "+33" },
    });
  });
});

describe("Register's prefilled name (the e-mail's local part as words)", () => {
  it("turns an e-mail as typed into a readable name; a phone number gives none", () => {
    expect(suggestedName("email", " first.last@example.com ")).toBe("First Last");
    expect(suggestedName("email", "jean-luc_picard+news@example.fr")).toBe("Jean Luc Picard");
    expect(suggestedName("email", "first.l")).toBe("First L");
    expect(suggestedName("email", "")).toBe("");
    expect(suggestedName("phone", "13800138000")).toBe("");
    expect(suggestedName("email", `${"long".repeat(10)}@example.com`)).toHaveLength(32);
  });
});

describe("Login failure text (spec §5 Login; sign-in throttling)", () => {
  it("shows the server's wait for a throttled sign-in, the spec's text for wrong credentials", () => {
    const wait = "Too many failed sign-ins. Please wait 4 s before trying again.";
    expect(signInFailure(new ApiError(wait, "invalid_grant", 429))).toEqual({ text: wait });
    expect(signInFailure(new ApiError("Login failed: wrong account or password.", "invalid_grant", 400))).toEqual({
      key: "login.verificationFailed",
    });
    expect(signInFailure(new ApiError("", -2, null))).toEqual({ key: "login.loginFailed" });
    expect(signInFailure(new ApiError("", 429, 429))).toEqual({ key: "login.loginFailed" });
  });
});
