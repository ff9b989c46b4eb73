import type { Language } from "@aquapilot/contract";

/**
 * Names of Chinese regions for readers of the other four languages (address names in the UI language):
 * the Chinese sources name cities and districts in Chinese only, so the region data build (scripts/
 * build-region-data.ts) gives them Hanyu Pinyin names with the kind of region in each language ("Huangpu District",
 * "Distrito de Huangpu", "District de Huangpu", "район Хуанпу"), Russian in the Palladius transcription. Pure: the
 * caller supplies the pinyin syllables of the name's stem (the build uses pinyin-pro).
 */

/** The kinds of region by their Chinese suffix, longest first, with the name pattern per language ({} = the stem). */
const KINDS: ReadonlyArray<{ suffix: string; names: Record<Exclude<Language, "zh-Hans">, string> }> = [
  {
    suffix: "自治县",
    names: {
      en: "{} Autonomous County",
      es: "Condado autónomo de {}",
      fr: "Xian autonome de {}",
      ru: "автономный уезд {}",
    },
  },
  {
    suffix: "自治州",
    names: {
      en: "{} Autonomous Prefecture",
      es: "Prefectura autónoma de {}",
      fr: "Préfecture autonome de {}",
      ru: "автономный округ {}",
    },
  },
  {
    suffix: "自治旗",
    names: {
      en: "{} Autonomous Banner",
      es: "Bandera autónoma de {}",
      fr: "Bannière autonome de {}",
      ru: "автономный хошун {}",
    },
  },
  {
    suffix: "新区",
    names: { en: "{} New Area", es: "Nueva Área de {}", fr: "Nouvelle zone de {}", ru: "новый район {}" },
  },
  {
    suffix: "特区",
    names: {
      en: "{} Special District",
      es: "Distrito especial de {}",
      fr: "District spécial de {}",
      ru: "особый район {}",
    },
  },
  { suffix: "地区", names: { en: "{} Prefecture", es: "Prefectura de {}", fr: "Préfecture de {}", ru: "округ {}" } },
  { suffix: "区", names: { en: "{} District", es: "Distrito de {}", fr: "District de {}", ru: "район {}" } },
  { suffix: "县", names: { en: "{} County", es: "Condado de {}", fr: "Xian de {}", ru: "уезд {}" } },
  { suffix: "旗", names: { en: "{} Banner", es: "Bandera de {}", fr: "Bannière de {}", ru: "хошун {}" } },
  { suffix: "盟", names: { en: "{} League", es: "Liga de {}", fr: "Ligue de {}", ru: "аймак {}" } },
  { suffix: "省", names: { en: "{} Province", es: "Provincia de {}", fr: "Province de {}", ru: "провинция {}" } },
  { suffix: "市", names: { en: "{}", es: "{}", fr: "{}", ru: "{}" } },
];

/** A Chinese region name split into its stem and its kind's suffix ("" when none is known). */
export function splitRegionName(name: string): { stem: string; suffix: string } {
  for (const kind of KINDS) {
    if (name.length > kind.suffix.length && name.endsWith(kind.suffix)) {
      return { stem: name.slice(0, -kind.suffix.length), suffix: kind.suffix };
    }
  }
  return { stem: name, suffix: "" };
}

/** Pinyin syllables (no tones, "v" or "ü" for ü) as one capitalised word, with ' before a/o/e after the first. */
export function pinyinWord(syllables: readonly string[]): string {
  const word = syllables
    .map((s, i) => {
      const low = s.toLowerCase().replace(/v/g, "ü");
      return i > 0 && /^[aoe]/.test(low) ? `'${low}` : low;
    })
    .join("");
  return word.charAt(0).toUpperCase() + word.slice(1);
}

const INITIALS: ReadonlyArray<[string, string]> = [
  ["zh", "чж"],
  ["ch", "ч"],
  ["sh", "ш"],
  ["b", "б"],
  ["p", "п"],
  ["m", "м"],
  ["f", "ф"],
  ["d", "д"],
  ["t", "т"],
  ["n", "н"],
  ["l", "л"],
  ["g", "г"],
  ["k", "к"],
  ["h", "х"],
  ["j", "цз"],
  ["q", "ц"],
  ["x", "с"],
  ["r", "ж"],
  ["z", "цз"],
  ["c", "ц"],
  ["s", "с"],
];

/** Finals after a consonant, Palladius; "i" after zh/ch/sh/r is и, after z/c/s ы (handled apart). */
const FINALS: Record<string, string> = {
  a: "а",
  o: "о",
  e: "э",
  ai: "ай",
  ei: "эй",
  ao: "ао",
  ou: "оу",
  an: "ань",
  en: "энь",
  ang: "ан",
  eng: "эн",
  ong: "ун",
  er: "эр",
  i: "и",
  ia: "я",
  ie: "е",
  iao: "яо",
  iu: "ю",
  ian: "янь",
  in: "инь",
  iang: "ян",
  ing: "ин",
  iong: "юн",
  u: "у",
  ua: "уа",
  uo: "о",
  uai: "уай",
  ui: "уй",
  uan: "уань",
  un: "унь",
  uang: "уан",
  ü: "юй",
  üe: "юэ",
  üan: "юань",
  ün: "юнь",
};

/** Bare-vowel syllables, which read as the same finals without an initial. */
const BARE = ["a", "o", "e", "ai", "ei", "ao", "ou", "an", "en", "ang", "eng", "er"] as const;

/** Syllables without an initial (bare vowels, y- and w-), Palladius. */
const WHOLE: Record<string, string> = {
  ...Object.fromEntries(BARE.map((f) => [f, FINALS[f]])),
  yi: "и",
  ya: "я",
  ye: "е",
  yao: "яо",
  you: "ю",
  yan: "янь",
  yin: "инь",
  yang: "ян",
  ying: "ин",
  yong: "юн",
  yu: "юй",
  yue: "юэ",
  yuan: "юань",
  yun: "юнь",
  wu: "у",
  wa: "ва",
  wo: "во",
  wai: "вай",
  wei: "вэй",
  wan: "вань",
  wen: "вэнь",
  wang: "ван",
  weng: "вэн",
};

/**
 * One pinyin syllable (no tone) in the Palladius system: initial + final, with j/q/x + u read as ü, zi/ci/si as
 * цзы/цы/сы, and a syllable ending in -н followed by a vowel-initial one marked with ъ by {@link palladiusWord}.
 * Unknown syllables come back in Latin letters.
 */
export function palladiusSyllable(syllable: string): string {
  const s = syllable.toLowerCase().replace(/v/g, "ü");
  if (WHOLE[s]) return WHOLE[s];
  for (const [initial, cyr] of INITIALS) {
    if (!s.startsWith(initial)) continue;
    let final = s.slice(initial.length);
    if ((initial === "j" || initial === "q" || initial === "x") && final.startsWith("u")) final = `ü${final.slice(1)}`;
    if (final === "i" && (initial === "z" || initial === "c" || initial === "s")) return `${cyr}ы`;
    if (final === "ü" && (initial === "l" || initial === "n")) return `${cyr}юй`;
    const f = FINALS[final];
    return f === undefined ? s : cyr + f;
  }
  return s;
}

/** Pinyin syllables as one capitalised Russian word (Palladius). */
export function palladiusWord(syllables: readonly string[]): string {
  const parts = syllables.map(palladiusSyllable);
  const word = parts
    .map((p, i) => (i > 0 && /н$/.test(parts[i - 1]) && /^[аеёиоуыэюя]/.test(p) ? `ъ${p}` : p))
    .join("");
  return word.charAt(0).toUpperCase() + word.slice(1);
}

/**
 * The four non-Chinese names of a Chinese region named `name`, from the pinyin syllables of its stem
 * (`stemSyllables(stem)`); null for names that are administrative placeholders (containing "-") or have no stem.
 */
export function romanizedRegionNames(
  name: string,
  stemSyllables: (stem: string) => string[],
): Record<Exclude<Language, "zh-Hans">, string> | null {
  if (name.includes("-")) return null;
  const { stem, suffix } = splitRegionName(name);
  const syllables = stemSyllables(stem).filter((s) => /^[a-zü]+$/i.test(s));
  if (syllables.length === 0) return null;
  const kind = KINDS.find((k) => k.suffix === suffix)?.names ?? { en: "{}", es: "{}", fr: "{}", ru: "{}" };
  const latin = pinyinWord(syllables);
  const russian = palladiusWord(syllables);
  return {
    en: kind.en.replace("{}", latin),
    es: kind.es.replace("{}", latin),
    fr: kind.fr.replace("{}", latin),
    ru: kind.ru.replace("{}", russian),
  };
}
