import type { Language } from "@aquapilot/contract/wire";
import countries from "i18n-iso-countries";
import en from "i18n-iso-countries/langs/en.json";
import es from "i18n-iso-countries/langs/es.json";
import fr from "i18n-iso-countries/langs/fr.json";
import ru from "i18n-iso-countries/langs/ru.json";
import zh from "i18n-iso-countries/langs/zh.json";
import {
  type CountryCode,
  getCountries,
  getCountryCallingCode,
  isValidPhoneNumber,
  parsePhoneNumberFromString,
} from "libphonenumber-js/mobile";
import { collator } from "../../shared/format/intl.ts";

/**
 * Countries for phone numbers (CountrySelect): ISO 3166-1 alpha-2 code, calling code and the name in the
 * interface language. Calling codes and validation come from libphonenumber-js (mobile metadata: a number is valid
 * only when it is a mobile number of that country, which is what an SMS code needs); names from i18n-iso-countries
 * with exactly the five interface locales registered here, so only those are bundled (its browser entry loads none).
 */
for (const locale of [zh, en, es, fr, ru])
  countries.registerLocale(locale as Parameters<typeof countries.registerLocale>[0]);

/** One country of the picker. */
export interface Country {
  /** ISO 3166-1 alpha-2, e.g. "CN". */
  iso2: CountryCode;
  /** Calling code with "+", e.g. "+86" (what the API's `countryCode` takes). */
  callingCode: string;
  /** Name in the requested language. */
  name: string;
  /** English name (search matches it in every language). */
  englishName: string;
  /** Index letter of the alphabetic index: pinyin initial for zh-Hans, else the name's first letter; "#" otherwise. */
  initial: string;
}

/** The i18n-iso-countries locale of an interface language. */
function isoLocale(lang: Language): string {
  return lang === "zh-Hans" ? "zh" : lang;
}

const PINYIN_LETTERS = "ABCDEFGHJKLMNOPQRSTWXYZ";
/** The first character of each pinyin initial in pinyin collation order (a well-known boundary list). */
const PINYIN_BOUNDARIES = "阿八嚓哒妸发旮哈讥咔垃痳拏噢妑七呥扨它穵夕丫帀";
let pinyinCollator: Intl.Collator | null = null;

/**
 * The index letter of a name (CountrySelect's alphabetic index). Chinese names get their pinyin initial through the
 * platform's pinyin collation (ICU), Latin and Cyrillic names their first letter without diacritics, upper case.
 */
export function indexInitial(name: string, lang: Language): string {
  const first = name.trim().charAt(0);
  if (!first) return "#";
  if (lang === "zh-Hans" && /\p{Script=Han}/u.test(first)) {
    pinyinCollator ??= collator("zh-Hans-CN-u-co-pinyin");
    let letter = "#";
    for (let i = 0; i < PINYIN_BOUNDARIES.length; i++) {
      if (pinyinCollator.compare(first, PINYIN_BOUNDARIES[i]) >= 0) letter = PINYIN_LETTERS[i];
      else break;
    }
    return letter;
  }
  const base = first.normalize("NFD").replace(/\p{M}/gu, "").toLocaleUpperCase(lang);
  return /\p{L}/u.test(base) ? base : "#";
}

const cache = new Map<Language, Country[]>();

/**
 * Every country libphonenumber-js knows that has a name, in `lang`, sorted by the language's collation (pinyin for
 * zh-Hans) and grouped by {@link Country.initial}. Cached per language.
 */
export function listCountries(lang: Language): Country[] {
  const hit = cache.get(lang);
  if (hit) return hit;
  const locale = isoLocale(lang);
  const sorter = collator(lang === "zh-Hans" ? "zh-Hans-CN-u-co-pinyin" : lang);
  const list: Country[] = [];
  for (const iso2 of getCountries()) {
    const englishName = countries.getName(iso2, "en");
    if (!englishName) continue;
    const name = countries.getName(iso2, locale) ?? englishName;
    list.push({
      iso2,
      callingCode: `+${getCountryCallingCode(iso2)}`,
      name,
      englishName,
      initial: indexInitial(name, lang),
    });
  }
  list.sort((a, b) =>
    a.initial === b.initial
      ? sorter.compare(a.name, b.name)
      : a.initial === "#"
        ? 1
        : b.initial === "#"
          ? -1
          : a.initial.localeCompare(b.initial, lang),
  );
  cache.set(lang, list);
  return list;
}

/** Lower case without diacritics, for matching. */
function fold(text: string): string {
  return text.normalize("NFD").replace(/\p{M}/gu, "").toLowerCase();
}

/**
 * Countries matching a search (CountrySelect's search): the name in the interface language or in English,
 * the ISO code, or the calling code with or without "+" (prefix match). Best first: exact ISO or calling code, then
 * names starting with the keyword, then the rest, each in list order. Empty keyword → all.
 */
export function searchCountries(list: readonly Country[], keyword: string): Country[] {
  const k = fold(keyword.trim());
  if (!k) return [...list];
  const digits = k.replace(/^\+/, "");
  const numeric = /^\d+$/.test(digits);
  // 0: ISO code or calling code exactly, 1: a name starts with it, 2: a name contains it or the calling code starts so
  const rank = (c: Country): number => {
    const names = [fold(c.name), fold(c.englishName)];
    if (c.iso2.toLowerCase() === k || (numeric && c.callingCode.slice(1) === digits)) return 0;
    if (names.some((n) => n.startsWith(k))) return 1;
    if (names.some((n) => n.includes(k)) || (numeric && c.callingCode.slice(1).startsWith(digits))) return 2;
    return 3;
  };
  return list
    .map((c, i) => ({ c, i, r: rank(c) }))
    .filter((x) => x.r < 3)
    .sort((a, b) => a.r - b.r || a.i - b.i)
    .map((x) => x.c);
}

/** One country by ISO code in `lang`, or null. */
export function findCountry(iso2: string | null | undefined, lang: Language): Country | null {
  if (!iso2) return null;
  return listCountries(lang).find((c) => c.iso2 === iso2.toUpperCase()) ?? null;
}

/** Main country of calling codes shared by several countries (e.g. +1 → US, +7 → RU, +44 → GB). */
const MAIN_COUNTRY: Record<string, CountryCode> = { "1": "US", "7": "RU", "44": "GB", "39": "IT", "47": "NO" };

/**
 * The country of a stored calling code ("+86" or "86"), made exact by the national number when given (e.g. +1 with
 * a Canadian number → CA). Null when the code is unknown.
 */
export function countryOfCallingCode(callingCode: string | null | undefined, nationalNumber?: string | null) {
  const digits = (callingCode ?? "").replace(/\D/g, "");
  if (!digits) return null;
  if (nationalNumber) {
    const parsed = parsePhoneNumberFromString(`+${digits}${nationalNumber.replace(/\D/g, "")}`);
    if (parsed?.country) return parsed.country;
  }
  if (MAIN_COUNTRY[digits]) return MAIN_COUNTRY[digits];
  return getCountries().find((c) => getCountryCallingCode(c) === digits) ?? null;
}

/** The default phone country of an interface language (zh-Hans → CN, en → GB, es → ES, ru → RU, fr → FR). */
export function defaultCountry(lang: Language): CountryCode {
  return ({ "zh-Hans": "CN", en: "GB", es: "ES", ru: "RU", fr: "FR" } as const)[lang];
}

/** A phone number checked for a country: the digits the API takes and the calling code. */
export interface CheckedPhone {
  /** National significant number, digits only, trunk prefix removed (e.g. "0612345678" FR → "612345678"). */
  nationalNumber: string;
  /** "+33". */
  countryCode: string;
}

/**
 * Validates a phone number typed for a country (libphonenumber-js `isValidPhoneNumber`, mobile metadata). Spaces,
 * dashes and a leading trunk "0" are accepted. Returns the national number and calling code, or null when the number
 * is not a valid mobile number there.
 */
export function checkPhone(input: string, iso2: CountryCode): CheckedPhone | null {
  const text = input.trim();
  if (!/\d/.test(text) || !isValidPhoneNumber(text, iso2)) return null;
  const parsed = parsePhoneNumberFromString(text, iso2);
  // "+44…" typed while China is chosen is a UK number: the chosen country's calling code must match.
  if (!parsed || parsed.countryCallingCode !== getCountryCallingCode(iso2)) return null;
  return { nationalNumber: String(parsed.nationalNumber), countryCode: `+${parsed.countryCallingCode}` };
}
