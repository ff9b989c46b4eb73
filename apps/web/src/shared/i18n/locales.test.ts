import { LANGUAGES } from "@aquapilot/contract";
import { beforeEach, describe, expect, it } from "vitest";
import { getItem, setItem } from "../storage/index.js";
import { i18n, LOCALES, mapLanguage, resolveStartupLanguage } from "./index.js";

/** Every leaf key path of a locale tree, e.g. "login.submit". */
function keys(tree: unknown, prefix = ""): string[] {
  if (typeof tree !== "object" || tree === null) return [prefix];
  return Object.entries(tree).flatMap(([k, v]) => keys(v, prefix ? `${prefix}.${k}` : k));
}

/** Interpolation placeholders of a message, e.g. ["seconds"]. */
function placeholders(text: string): string[] {
  return [...text.matchAll(/\{\{(\w+)\}\}/g)].map((m) => m[1]).sort();
}

describe("locales (spec §1: one key tree in five languages)", () => {
  const reference = keys(LOCALES["zh-Hans"]).sort();

  for (const lang of LANGUAGES) {
    it(`${lang} has exactly the keys of zh-Hans, non-empty, with the same placeholders`, () => {
      const tree = LOCALES[lang];
      const own = keys(tree).sort();
      expect(
        own.filter((k) => !reference.includes(k)),
        "extra keys",
      ).toEqual([]);
      expect(
        reference.filter((k) => !own.includes(k)),
        "missing keys",
      ).toEqual([]);
      for (const key of own) {
        const text = key.split(".").reduce<unknown>((node, part) => (node as Record<string, unknown>)[part], tree);
        expect(typeof text === "string" && text.length > 0, `${lang} ${key}`).toBe(true);
        const ref = key.split(".").reduce<unknown>((n, p) => (n as Record<string, unknown>)[p], LOCALES["zh-Hans"]);
        expect(placeholders(text as string), `${lang} ${key} placeholders`).toEqual(placeholders(ref as string));
      }
    });
  }

  it("translates rather than copies English (the spec's §5 texts differ per language)", () => {
    for (const lang of ["zh-Hans", "es", "ru", "fr"] as const) {
      expect(LOCALES[lang].login.verificationFailed).not.toBe(LOCALES.en.login.verificationFailed);
      expect(LOCALES[lang].register.passwordsMismatch).not.toBe(LOCALES.en.register.passwordsMismatch);
      expect(LOCALES[lang].station["2"]).not.toBe(LOCALES.en.station["2"]);
    }
  });

  it("carries the spec's English texts of §3 and §5", () => {
    const en = LOCALES.en;
    expect(en.station["0"].toLowerCase()).toBe("in service");
    expect(en.station["2"].toLowerCase()).toBe("brine draw and slow rinse");
    expect(en.station["6"]).toBe(en.station["7"]);
    expect(en.login.verificationFailed).toBe("Verification failed");
    expect(en.login.loginFailed).toBe("Login failed");
    expect(en.register.passwordsMismatch).toBe("Passwords do not match");
    expect(en.register.privacyRequired).toBe("Please read and accept the privacy policy");
    expect(en.errors.loginExpired).toBe("Login expired");
    expect(en.errors.deviceOffline).toBe("Device offline");
    expect(en.errors.systemError).toBe("System error");
    expect(en.errors.excessiveFlow).toBe("Excessive flow");
    expect(en.login.required.toLowerCase()).toContain("enter username and password");
  });

  it("falls back to zh-Hans", () => {
    expect(i18n.options.fallbackLng).toEqual(["zh-Hans"]);
    expect(i18n.getFixedT("zh-Hans")("login.submit")).toBe("登录");
  });
});

describe("language detection (spec §4)", () => {
  beforeEach(() => localStorage.clear());

  it("maps native tags: zh → zh-Hans; en, es, ru, fr; others unknown", () => {
    expect(mapLanguage("zh")).toBe("zh-Hans");
    expect(mapLanguage("zh_CN")).toBe("zh-Hans");
    expect(mapLanguage("en-US")).toBe("en");
    expect(mapLanguage("fr")).toBe("fr");
    expect(mapLanguage("ru-RU")).toBe("ru");
    expect(mapLanguage("es")).toBe("es");
    expect(mapLanguage("de")).toBeNull();
    expect(mapLanguage(null)).toBeNull();
  });

  it("stores the native language and reloads only when none was stored", () => {
    expect(resolveStartupLanguage("en")).toEqual({ lang: "en", reload: true });
    expect(getItem("lang")).toBe("en");
    expect(resolveStartupLanguage("fr")).toEqual({ lang: "en", reload: false });
  });

  it("uses zh-Hans without a reload when there is no native language", () => {
    expect(resolveStartupLanguage(null)).toEqual({ lang: "zh-Hans", reload: false });
    setItem("lang", "ru");
    expect(resolveStartupLanguage("en")).toEqual({ lang: "ru", reload: false });
  });
});
