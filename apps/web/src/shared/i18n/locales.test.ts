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

/** i18next's plural suffixes (CLDR categories): `deviceCount_one`, `deviceCount_other`, … */
const PLURAL_SUFFIX = /_(zero|one|two|few|many|other)$/;

/** A key without its plural suffix: one message whatever forms its language needs. */
function messageKey(key: string): string {
  return key.replace(PLURAL_SUFFIX, "");
}

/** The plural categories a language needs (Intl.PluralRules: zh-Hans other; en, es, fr one/other (+ many); ru four). */
function pluralCategories(lang: string): string[] {
  return [...new Intl.PluralRules(lang).resolvedOptions().pluralCategories].sort();
}

function lookup(tree: unknown, key: string): unknown {
  return key.split(".").reduce<unknown>((node, part) => (node as Record<string, unknown>)?.[part], tree);
}

describe("locales (spec §1: one key tree in five languages)", () => {
  const referenceKeys = keys(LOCALES["zh-Hans"]);
  const reference = [...new Set(referenceKeys.map(messageKey))].sort();
  const plural = new Set(
    LANGUAGES.flatMap((lang) =>
      keys(LOCALES[lang])
        .filter((k) => PLURAL_SUFFIX.test(k))
        .map(messageKey),
    ),
  );

  for (const lang of LANGUAGES) {
    it(`${lang} has exactly the messages of zh-Hans, non-empty, with the same placeholders and its plural forms`, () => {
      const tree = LOCALES[lang];
      const ownKeys = keys(tree);
      const own = [...new Set(ownKeys.map(messageKey))].sort();
      expect(
        own.filter((k) => !reference.includes(k)),
        "extra keys",
      ).toEqual([]);
      expect(
        reference.filter((k) => !own.includes(k)),
        "missing keys",
      ).toEqual([]);
      for (const key of ownKeys) {
        const text = lookup(tree, key);
        expect(typeof text === "string" && text.length > 0, `${lang} ${key}`).toBe(true);
        const base = messageKey(key);
        const refKey = plural.has(base) ? `${base}_other` : key;
        const ref = lookup(LOCALES["zh-Hans"], refKey);
        expect(placeholders(text as string), `${lang} ${key} placeholders`).toEqual(placeholders(ref as string));
      }
      // A message with a count has exactly the forms its language's plural rules ask for (i18next picks by count).
      for (const base of plural) {
        const forms = ownKeys
          .filter((k) => messageKey(k) === base && PLURAL_SUFFIX.test(k))
          .map((k) => (PLURAL_SUFFIX.exec(k) as RegExpExecArray)[1])
          .sort();
        expect(forms, `${lang} ${base} plural forms`).toEqual(pluralCategories(lang));
      }
    });
  }

  it('counts read right in every language (issue 10: no "1 devices")', async () => {
    const count = async (lang: string, n: number) => {
      await i18n.changeLanguage(lang);
      return i18n.t("home.deviceCount", { count: n });
    };
    expect(await count("en", 1)).toBe("1 device");
    expect(await count("en", 2)).toBe("2 devices");
    expect(await count("es", 1)).toBe("1 dispositivo");
    expect(await count("fr", 1)).toBe("1 appareil");
    expect(await count("ru", 1)).toBe("1 устройство");
    expect(await count("ru", 3)).toBe("3 устройства");
    expect(await count("ru", 5)).toBe("5 устройств");
    expect(await count("ru", 21)).toBe("21 устройство");
    expect(await count("zh-Hans", 1)).toBe("1 台设备");
    await i18n.changeLanguage("en");
  });

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
