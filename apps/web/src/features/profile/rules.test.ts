import { describe, expect, it } from "vitest";
import { AVATAR_MAX_BYTES, checkAvatarFile, validateChangePassword, validateUserName } from "./rules.ts";

describe("Change password (spec §5: old required, new at least 6)", () => {
  const ok = { current: "old-secret", next: "secret1", confirm: "secret1" };
  it("accepts a valid form", () => expect(validateChangePassword(ok)).toBeNull());
  it("answers the first problem", () => {
    expect(validateChangePassword({ ...ok, current: "" })).toBe("password.currentRequired");
    expect(validateChangePassword({ ...ok, next: "", confirm: "" })).toBe("password.newRequired");
    expect(validateChangePassword({ ...ok, next: "12345", confirm: "12345" })).toBe("password.newTooShort");
    expect(validateChangePassword({ ...ok, next: "123456", confirm: "123456" })).toBeNull();
    expect(validateChangePassword({ ...ok, confirm: "" })).toBe("password.confirmRequired");
    expect(validateChangePassword({ ...ok, confirm: "secret2" })).toBe("password.mismatch");
    expect(validateChangePassword({ current: "secret1", next: "secret1", confirm: "secret1" })).toBe(
      "password.sameAsCurrent",
    );
  });
});

describe("User name and avatar rules", () => {
  it("user name: 2–64 characters, no spaces", () => {
    expect(validateUserName("ana")).toBeNull();
    expect(validateUserName("  ana  ")).toBeNull();
    expect(validateUserName("")).toBe("personal.userNameRequired");
    expect(validateUserName("a")).toBe("personal.userNameRule");
    expect(validateUserName("a b")).toBe("personal.userNameRule");
    expect(validateUserName("x".repeat(64))).toBeNull();
    expect(validateUserName("x".repeat(65))).toBe("personal.userNameRule");
  });

  it("avatar: PNG, JPEG or WebP up to 2 MB", () => {
    expect(checkAvatarFile({ type: "image/png", size: 1000 })).toBe("ok");
    expect(checkAvatarFile({ type: "image/webp", size: AVATAR_MAX_BYTES })).toBe("ok");
    expect(checkAvatarFile({ type: "image/jpeg", size: AVATAR_MAX_BYTES + 1 })).toBe("size");
    expect(checkAvatarFile({ type: "image/gif", size: 10 })).toBe("type");
  });
});
