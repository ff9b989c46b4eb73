import fs from "node:fs";
import path from "node:path";
import { LANGUAGES } from "@aquapilot/contract";
import { describe, expect, it } from "vitest";
import { MODULE_CATALOGUES } from "../../test/catalogue.ts";
import { AppError } from "./errors.ts";
import { pluralBlocks, templateParams } from "./message-format.ts";
import { isMessageKey, MESSAGES, resolveLanguage, translate } from "./messages.ts";

describe("server message catalogue", () => {
  it("takes only catalogue keys in AppError (a wrong key does not compile)", () => {
    // @ts-expect-error "deviceNotFound" is no key of the catalogue: npm run typecheck fails if this compiles.
    const wrong = new AppError("NotFound", "deviceNotFound");
    expect(isMessageKey(wrong.messageKey)).toBe(false);
    expect(isMessageKey(new AppError("NotFound", "device.notFound").messageKey)).toBe(true);
  });

  it("test/catalogue.ts names every module's messages.ts", () => {
    const modules = path.join(import.meta.dirname, "../modules");
    const withTexts = fs
      .readdirSync(modules)
      .filter((m) => fs.existsSync(path.join(modules, m, "messages.ts")))
      .sort();
    expect(Object.keys(MODULE_CATALOGUES).sort()).toEqual(withTexts);
  });

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
      expect(templateParams(MESSAGES[lang][key]), `${lang} ${key}`).toEqual(templateParams(MESSAGES.en[key]));
    }
  });

  /** The CLDR plural categories of a language, e.g. ru one/few/many/other (Intl.PluralRules). */
  const categories = (lang: string) => [...new Intl.PluralRules(lang).resolvedOptions().pluralCategories].sort();

  it.each(LANGUAGES)(
    "%s counts with the plural forms its rules ask for where en counts (glossary 'Plurals')",
    (lang) => {
      for (const key of reference) {
        const counted = pluralBlocks(MESSAGES.en[key]).map((b) => b.param);
        const blocks = pluralBlocks(MESSAGES[lang][key]);
        for (const block of blocks) {
          const forms = Object.keys(block.branches)
            .filter((s) => !s.startsWith("="))
            .sort();
          expect(forms, `${lang} ${key} {${block.param}, plural}`).toEqual(categories(lang));
          for (const branch of Object.values(block.branches)) expect(branch, `${lang} ${key}`).toContain("#");
        }
        // A language with a single form (zh-Hans) may write the number plainly, but writes it; every other one needs
        // the block.
        if (categories(lang).length > 1)
          expect(blocks.map((b) => b.param).sort(), `${lang} ${key}`).toEqual(counted.sort());
        else for (const param of counted) expect(MESSAGES[lang][key], `${lang} ${key}`).toContain(`{${param}`);
      }
    },
  );

  it("has no number of days, minutes or tries before a noun without a plural block", () => {
    // "{days} days", "{minutes} минут", "{remaining} essais": a count read as a word must come from a plural block.
    const bare = /\{(days|minutes|hours|remaining|count|n)\}(?!\s*(s|min|с|мин|秒|分钟|天|次|小时)\b)/u;
    for (const lang of LANGUAGES) {
      if (categories(lang).length === 1) continue;
      for (const key of reference) expect(MESSAGES[lang][key], `${lang} ${key}`).not.toMatch(bare);
    }
  });

  it("addresses the reader as the glossary says: es usted, ru вы without «Онлайн», zh-Hans 您; household not family", () => {
    const esTu =
      /(^|[^\p{L}])(tu|tus|tú|te|puedes|tienes|quieres|debes|añade|pulsa|toca|elige|introduce|comprueba|selecciona|escanea|pega|únete|mantén|vuelve a intentarlo)(?![\p{L}])/iu;
    for (const key of reference) {
      expect(MESSAGES.es[key], `es ${key}`).not.toMatch(esTu);
      expect(MESSAGES.ru[key], `ru ${key}`).not.toMatch(/Онлайн/i);
      expect(MESSAGES["zh-Hans"][key], `zh-Hans ${key}`).not.toMatch(/你/);
      expect(MESSAGES.en[key].replace(/\{\w+\}/g, ""), `en ${key}`).not.toMatch(/\bfamily\b/i);
      expect(MESSAGES.es[key], `es ${key}`).not.toMatch(/\bequipos?\b/i);
    }
  });

  it("fills placeholders and differs between languages", () => {
    expect(translate("en", "account.codeTooSoon", { seconds: 42 })).toContain("42 s");
    expect(translate("zh-Hans", "account.codeTooSoon", { seconds: 42 })).toContain("42 秒");
    expect(translate("en", "error.notFound")).not.toBe(translate("fr", "error.notFound"));
  });

  it("counts in the reader's language, with its plural forms (no '1 days')", () => {
    const salt = (lang: "en" | "ru" | "es" | "fr" | "zh-Hans", days: number) =>
      translate(lang, "message.saltLow.content", { device: "Kitchen", days });
    expect(salt("en", 1)).toContain("about 1 day left");
    expect(salt("en", 4)).toContain("about 4 days left");
    expect(salt("ru", 1)).toContain("остался примерно 1 день");
    expect(salt("ru", 3)).toContain("осталось примерно 3 дня");
    expect(salt("ru", 5)).toContain("осталось примерно 5 дней");
    expect(salt("es", 1)).toContain("aproximadamente 1 día");
    expect(salt("fr", 1)).toContain("environ 1 jour");
    expect(salt("zh-Hans", 1)).toContain("1 天");
    expect(translate("en", "account.codeWrong", { remaining: 1 })).toContain("1 try left");
    expect(translate("ru", "account.codeWrong", { remaining: 2 })).toContain("Осталось 2 попытки");
    expect(translate("en", "validation.tooShort", { field: "Name", min: 1 })).toBe(
      "Name must be at least 1 character long.",
    );
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
