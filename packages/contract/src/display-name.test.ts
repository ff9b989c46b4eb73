import { describe, expect, it } from "vitest";
import { clampToCodeUnits, DISPLAY_NAME_MAX, nameFromEmail } from "./display-name.ts";
import { endpoints, ZDisplayName, ZFamilyName } from "./index.ts";

describe("display name suggested from an e-mail (Register)", () => {
  it("turns the local part's words into a name with raised first letters", () => {
    expect(nameFromEmail("first.last@example.com")).toBe("First Last");
    expect(nameFromEmail("anna_maria-lopez@example.com")).toBe("Anna Maria Lopez");
    expect(nameFromEmail("ann@example.com")).toBe("Ann");
    // The rest of each word stays as typed; digits stay.
    expect(nameFromEmail("mcDonald.JOHN99@example.com")).toBe("McDonald JOHN99");
    expect(nameFromEmail("élodie.durand@example.fr")).toBe("Élodie Durand");
    expect(nameFromEmail("张三@example.cn")).toBe("张三");
  });

  it("drops a +tag, repeated separators and everything after the last @; follows an address being typed", () => {
    expect(nameFromEmail("ann+shop@example.com")).toBe("Ann");
    expect(nameFromEmail("..first__last--@example.com")).toBe("First Last");
    expect(nameFromEmail("first.la")).toBe("First La");
    expect(nameFromEmail("first.last@")).toBe("First Last");
    expect(nameFromEmail("")).toBe("");
    expect(nameFromEmail("+tag@example.com")).toBe("");
    expect(nameFromEmail("._-@example.com")).toBe("");
  });

  it("cuts to 32 code units without splitting a character or leaving a trailing space", () => {
    expect(DISPLAY_NAME_MAX).toBe(32);
    const long = nameFromEmail(`${"a".repeat(20)}.${"b".repeat(20)}@example.com`);
    expect(long).toBe(`A${"a".repeat(19)} B${"b".repeat(10)}`);
    expect(long).toHaveLength(32);
    // A word ending right at the limit leaves no trailing space.
    expect(nameFromEmail(`${"a".repeat(32)}.b@example.com`)).toBe(`A${"a".repeat(31)}`);
    // 😀 is two UTF-16 code units: the 17th does not fit and is left out whole.
    const emoji = nameFromEmail(`${"😀".repeat(17)}@example.com`);
    expect(emoji).toBe("😀".repeat(16));
    expect(ZDisplayName.safeParse(emoji).success).toBe(true);
  });

  it("cuts text to a field's limit whole characters at a time, keeping white space (a field still being typed)", () => {
    expect(clampToCodeUnits("abc def", 4)).toBe("abc ");
    expect(clampToCodeUnits("short", 32)).toBe("short");
    expect(clampToCodeUnits("a😀b", 2)).toBe("a");
    expect(clampToCodeUnits("a😀b", 3)).toBe("a😀");
    expect(clampToCodeUnits("", 0)).toBe("");
  });

  it("is what the register call accepts as name: 1–32 characters after trimming, as household names", () => {
    const query = { bindType: "1", account: "a@b.cd", password: "secret1", code: "123456", serviceRegion: "2" };
    expect(endpoints.register.query.safeParse(query).success).toBe(true);
    const withName = endpoints.register.query.safeParse({ ...query, name: "  Ann Lee  " });
    expect(withName.success && withName.data.name).toBe("Ann Lee");
    expect(endpoints.register.query.safeParse({ ...query, name: "x".repeat(32) }).success).toBe(true);
    expect(endpoints.register.query.safeParse({ ...query, name: "x".repeat(33) }).success).toBe(false);
    expect(endpoints.register.query.safeParse({ ...query, name: "   " }).success).toBe(false);
    expect(endpoints.register.query.safeParse({ ...query, name: "Ann\nLee" }).success).toBe(false);
    expect(ZFamilyName.safeParse("x".repeat(DISPLAY_NAME_MAX)).success).toBe(true);
    expect(ZFamilyName.safeParse("x".repeat(DISPLAY_NAME_MAX + 1)).success).toBe(false);
  });
});
