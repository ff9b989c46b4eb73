import { LANGUAGES } from "@aquapilot/contract";
import { describe, expect, it } from "vitest";
import { MESSAGES, resolveLanguage, translate } from "./messages.js";

describe("server message catalogue", () => {
  const reference = Object.keys(MESSAGES.en).sort();

  it.each(LANGUAGES)("%s has exactly the keys of en, each non-empty", (lang) => {
    const keys = Object.keys(MESSAGES[lang]).sort();
    expect(
      keys.filter((k) => !reference.includes(k)),
      "extra keys",
    ).toEqual([]);
    expect(
      reference.filter((k) => !keys.includes(k)),
      "missing keys",
    ).toEqual([]);
    for (const k of keys) expect(MESSAGES[lang][k as keyof (typeof MESSAGES)["en"]].trim()).not.toBe("");
  });

  it.each(LANGUAGES)("%s keeps every placeholder of en", (lang) => {
    for (const key of reference) {
      const want = (MESSAGES.en[key as keyof (typeof MESSAGES)["en"]].match(/\{\w+\}/g) ?? []).sort();
      const got = (MESSAGES[lang][key as keyof (typeof MESSAGES)["en"]].match(/\{\w+\}/g) ?? []).sort();
      expect(got, `${lang} ${key}`).toEqual(want);
    }
  });

  it("fills placeholders and differs between languages", () => {
    expect(translate("en", "account.codeTooSoon", { seconds: 42 })).toContain("42 s");
    expect(translate("zh-Hans", "account.codeTooSoon", { seconds: 42 })).toContain("42 秒");
    expect(translate("en", "error.notFound")).not.toBe(translate("fr", "error.notFound"));
  });
});

describe("resolveLanguage (Accept-Language)", () => {
  it.each([
    [undefined, "zh-Hans"],
    ["", "zh-Hans"],
    ["zh", "zh-Hans"],
    ["zh-CN", "zh-Hans"],
    ["zh-Hans-CN,zh;q=0.9", "zh-Hans"],
    ["en-US,en;q=0.9", "en"],
    ["es", "es"],
    ["ru-RU", "ru"],
    ["fr-CA,fr;q=0.8", "fr"],
    ["de-DE", "zh-Hans"],
    ["de;q=1, en;q=0.5", "en"],
    ["en;q=0.2, ru;q=0.8", "ru"],
    ["en;q=0", "zh-Hans"],
  ])("%s → %s", (header, want) => {
    expect(resolveLanguage(header)).toBe(want);
  });
});
