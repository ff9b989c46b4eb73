import { existsSync, readFileSync } from "node:fs";
import path from "node:path";
import { LANGUAGES } from "@aquapilot/contract";
import { beforeEach, describe, expect, it } from "vitest";
import { LOCALE_FILES, LOCALES } from "../../app/all-locales.ts";
import { getItem, setItem } from "../storage/index.ts";
import { areaOf, i18n, mapLanguage, resolveStartupLanguage, TEXT_GROUPS } from "./index.ts";

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

  /** Every message of a language as [key, text], plural forms included. */
  const texts = (lang: (typeof LANGUAGES)[number]) =>
    keys(LOCALES[lang]).map((k) => [k, lookup(LOCALES[lang], k) as string] as const);

  /**
   * Count-like placeholders (docs/glossary.md "Plurals"): `{{count}}` must come with plural forms; in a message
   * without plural forms the others are allowed only right before a unit symbol that does not change with the number
   * ("{{seconds}} s", "{{minutes}} мин"). (A plural message may show another number too, e.g. "{{rows}} of {{total}}
   * rows" chosen by count = total.)
   */
  const COUNT_LIKE = /\{\{(n|days|hours|minutes|seconds|members|devices|remaining|total)\}\}/gu;
  const UNIT_AFTER = /^\s*(?:(?:s|min|h|с|мин|ч)(?![\p{L}])|秒|分钟|小时)/u;

  for (const lang of LANGUAGES) {
    it(`${lang}: every count is a plural (no "1 days")`, () => {
      for (const [key, text] of texts(lang)) {
        if (text.includes("{{count}}"))
          expect(PLURAL_SUFFIX.test(key), `${lang} ${key} uses {{count}} without plural forms`).toBe(true);
        if (PLURAL_SUFFIX.test(key)) continue;
        for (const m of text.matchAll(COUNT_LIKE)) {
          const after = text.slice((m.index ?? 0) + m[0].length);
          expect(UNIT_AFTER.test(after), `${lang} ${key}: ${m[0]} is a count; use {{count}} and plural forms`).toBe(
            true,
          );
        }
      }
    });
  }

  it("es addresses the owner as usted (glossary: no tú forms)", () => {
    // Tell-tale tú words: pronouns, possessives and verb forms that are never usted, anywhere; tú imperatives (which
    // are also the usted indicative, "la posición que elige") when they open the text or a sentence.
    const tu =
      /(?<![\p{L}])(tu|tus|tú|te|ti|contigo|puedes|tienes|quieres|debes|estás|eres|has|mantén|únete|cópialo)(?![\p{L}])/iu;
    const imperative =
      /(^|[.;:!?¿¡(]\s*)(pulsa|toca|elige|introduce|selecciona|escanea|pega|desliza|suelta|añade|comprueba|vuelve|espera|abre|cierra|crea|usa|actualiza|comparte|coloca|inicia|confirma|revisa|busca|escribe|permite|mira|guarda|deja)(?![\p{L}])/iu;
    const found = texts("es").filter(([, text]) => tu.test(text) || imperative.test(text));
    expect(found.map(([key, text]) => `${key}: ${text}`)).toEqual([]);
  });

  it("ru says «В сети» for online and «В реальном времени» for live, never «Онлайн» (glossary)", () => {
    const found = texts("ru").filter(([, text]) => /онлайн/iu.test(text));
    expect(found.map(([key, text]) => `${key}: ${text}`)).toEqual([]);
    expect(LOCALES.ru.home.live).toBe(LOCALES.ru.device.live);
    expect(LOCALES.ru.home.online).toBe(LOCALES.ru.device.online);
  });

  it("zh-Hans addresses the owner as 您, never 你 (glossary)", () => {
    const found = texts("zh-Hans").filter(([, text]) => text.includes("你"));
    expect(found.map(([key, text]) => `${key}: ${text}`)).toEqual([]);
  });

  /**
   * Sentence case (glossary): titles, buttons, tabs, menu rows, route titles, station names and the network setup's
   * progress steps and failures start with a capital letter in en, es, fr and ru. A key counts as a title or button
   * when its last part is one of BUTTON_KEYS or ends in "Title", or it lies under routes, tabs, my, station, steps
   * or *Failures.
   */
  const BUTTON_KEYS = new Set([
    "title",
    "submit",
    "save",
    "cancel",
    "confirm",
    "ok",
    "retry",
    "clear",
    "close",
    "done",
    "next",
  ]);
  const isTitleOrButton = (key: string) => {
    const parts = messageKey(key).split(".");
    const last = parts[parts.length - 1];
    return (
      BUTTON_KEYS.has(last) ||
      /Title$/.test(last) ||
      ["routes", "tabs", "my", "station"].includes(parts[0]) ||
      parts.some((p) => p === "steps" || /Failures$/.test(p))
    );
  };
  for (const lang of ["en", "es", "fr", "ru"] as const) {
    it(`${lang}: titles and buttons are in sentence case (no "choose location", "confirm", "cancel")`, () => {
      const lower = texts(lang).filter(([key, text]) => isTitleOrButton(key) && /^[\p{Ll}]/u.test(text));
      expect(lower.map(([key, text]) => `${key}: ${text}`)).toEqual([]);
      const upperWords = texts(lang).filter(
        ([key, text]) =>
          isTitleOrButton(key) &&
          lang === "en" &&
          /^\p{Lu}\p{Ll}+ (\p{Lu}\p{Ll}+ ){1,}/u.test(text) &&
          !/(Wi-Fi|Bluetooth|AquaPilot|QR|MAC)/.test(text),
      );
      expect(
        upperWords.map(([key, text]) => `${key}: ${text}`),
        "Title Case instead of sentence case",
      ).toEqual([]);
    });
  }

  it("keeps the picker's and map's spec texts (§2) with only the first letter raised", () => {
    expect(LOCALES.en.map.title).toBe("Choose location");
    expect(LOCALES.en.map.confirm).toBe("Confirm");
    expect(LOCALES.en.picker.cancel).toBe("Cancel");
    expect(LOCALES.en.picker.confirm).toBe("Confirm");
    expect(LOCALES.en.picker.clear).toBe("Clear");
    expect(LOCALES.en.picker.timeTitle).toBe("Select minutes and seconds");
    expect(LOCALES.en.map.searchPlaceholder).toBe("Location search");
  });

  it('counts read right in every language (no "1 devices")', async () => {
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
    const say = async (
      lang: string,
      key: "device.reportedAgo" | "familyUser.count" | "saltGauge.daysLeft",
      n: number,
    ) => {
      await i18n.changeLanguage(lang);
      return i18n.t(key, { count: n });
    };
    expect(await say("en", "device.reportedAgo", 1)).toBe("1 minute ago");
    expect(await say("en", "saltGauge.daysLeft", 1)).toBe("Lasts about 1 day");
    expect(await say("ru", "device.reportedAgo", 3)).toBe("3 минуты назад");
    expect(await say("ru", "familyUser.count", 11)).toBe("11 участников");
    expect(await say("es", "familyUser.count", 1)).toBe("1 miembro");
    expect(await say("fr", "familyUser.count", 0)).toBe("0 membre");
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

  it("holds no key with a colon: every key is an object path (shared/i18n names its separators)", () => {
    for (const lang of LANGUAGES) {
      expect(
        keys(LOCALES[lang]).filter((key) => key.includes(":")),
        lang,
      ).toEqual([]);
    }
    // Named by the app (not i18next's defaults): i18next skips its natural-language test of each key.
    const options = i18n.options as unknown as Record<string, unknown>;
    expect([options.userDefinedKeySeparator, options.userDefinedNsSeparator]).toEqual([".", ":"]);
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

describe("text groups (a screen loads only its groups' texts)", () => {
  const files = LOCALE_FILES.filter((f) => f.endsWith("/en.json"));
  /** apps/web/src on disk (this file is src/shared/i18n/locales.test.ts). */
  const src = path.resolve(__dirname, "../..");
  const treesEn = Object.fromEntries(
    files.map((f) => [areaOf(f), JSON.parse(readFileSync(path.resolve(__dirname, f), "utf8"))]),
  ) as Record<string, Record<string, unknown>>;

  it("put every locale area in exactly one group", () => {
    const areas = [...new Set(files.map(areaOf))].sort();
    const grouped = Object.values(TEXT_GROUPS).flat();
    expect([...grouped].sort()).toEqual(areas);
    expect(new Set(grouped).size).toBe(grouped.length);
  });

  /** Source files reachable by static imports from `roots` (relative imports only), paths relative to src. */
  function staticGraph(roots: string[]): string[] {
    const seen = new Set<string>();
    const visit = (file: string) => {
      if (seen.has(file)) return;
      seen.add(file);
      const text = readFileSync(path.join(src, file), "utf8");
      for (const m of text.matchAll(/^(?:import|export)\s[^;]*?from\s+"(\.[^"]+)";/gms)) {
        if (/^(?:import|export)\s+type\s/.test(m[0])) continue;
        const base = path.normalize(path.join(path.dirname(file), m[1])).replace(/\.js$/, "");
        // Imports name their file with its extension ("./text-field.tsx"); an extensionless one is tried as .ts/.tsx.
        const found = [base, `${base}.ts`, `${base}.tsx`].find(
          (f) => /\.tsx?$/.test(f) && existsSync(path.join(src, f)),
        );
        if (found) visit(found);
      }
    };
    for (const r of roots) visit(r);
    return [...seen];
  }

  /** The areas whose top-level keys the given source files name in string literals ("login.submit"), with where. */
  function areasUsed(sources: string[]): Map<string, string[]> {
    const owner = new Map<string, string>();
    for (const [area, tree] of Object.entries(treesEn)) for (const key of Object.keys(tree)) owner.set(key, area);
    const used = new Map<string, string[]>();
    for (const file of sources) {
      const text = readFileSync(path.join(src, file), "utf8");
      for (const m of text.matchAll(/["`]([a-zA-Z]+)\.[a-zA-Z0-9_.]+["`]/g)) {
        const area = owner.get(m[1]);
        if (area) used.set(area, [...(used.get(area) ?? []), `${file}: ${m[0]}`]);
      }
    }
    return used;
  }

  it.each([
    ["Login", ["main.tsx", "features/account/screens/login-screen.tsx"], ["start"] as const],
    ["Home", ["main.tsx", "app/index-layout.tsx", "features/home/screens/home-screen.tsx"], ["start", "home"] as const],
    ["Device", ["main.tsx", "features/device/screens/device-screen.tsx"], ["start", "home", "device"] as const],
  ])("%s names only keys of its declared groups", (_name, roots, groups) => {
    const allowed = new Set<string>(groups.flatMap((g) => TEXT_GROUPS[g]));
    const used = areasUsed(staticGraph(roots));
    const outside = [...used].filter(([area]) => !allowed.has(area)).flatMap(([, where]) => where);
    expect(used.size).toBeGreaterThan(0); // the scan found the screen's keys at all
    expect(staticGraph(roots).length, "the scan follows the screen's imports").toBeGreaterThan(roots.length + 5);
    expect(outside).toEqual([]);
  });
});
