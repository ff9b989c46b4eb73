/**
 * The catalogue's template language (docs/glossary.md "Plurals"): `{name}` is replaced by the parameter `name`;
 * `{name, plural, one {…} few {…} many {…} other {…}}` (the ICU MessageFormat plural subset) picks the branch for the
 * number in `name` by the CLDR plural rules of the language (`Intl.PluralRules`), an exact `=N` branch first; inside
 * a branch `#` is that number and `{other}` placeholders work as outside. Plural blocks do not nest.
 */

/** Parameters of a message: names to strings or numbers. */
export type MessageParams = Record<string, string | number>;

/** A parsed plural block: the parameter that selects, its branches by selector ("one", "=0", …). */
export interface PluralBlock {
  param: string;
  branches: Record<string, string>;
}

const PLURAL_HEAD = /^\{\s*(\w+)\s*,\s*plural\s*,/;

/**
 * Reads the text between the brace at `open` and its matching closing brace (braces nest).
 * @returns the index of the closing brace, or -1 when the braces do not balance.
 */
function closingBrace(text: string, open: number): number {
  let depth = 0;
  for (let i = open; i < text.length; i++) {
    if (text[i] === "{") depth++;
    else if (text[i] === "}") {
      depth--;
      if (depth === 0) return i;
    }
  }
  return -1;
}

/**
 * Parses the plural block that starts at `start` (a `{`), e.g. `{days, plural, one {# day} other {# days}}`.
 * @returns the block and the index just after it, or null when the text there is not a well-formed plural block.
 */
function parsePlural(text: string, start: number): { block: PluralBlock; end: number } | null {
  const head = PLURAL_HEAD.exec(text.slice(start));
  if (!head) return null;
  const close = closingBrace(text, start);
  if (close < 0) return null;
  const body = text.slice(start + head[0].length, close);
  const branches: Record<string, string> = {};
  let i = 0;
  while (i < body.length) {
    while (i < body.length && /\s/.test(body[i])) i++;
    if (i >= body.length) break;
    const selector = /^(=\d+|zero|one|two|few|many|other)\s*\{/.exec(body.slice(i));
    if (!selector) return null;
    const open = i + selector[0].length - 1;
    const end = closingBrace(body, open);
    if (end < 0) return null;
    branches[selector[1]] = body.slice(open + 1, end);
    i = end + 1;
  }
  if (!Object.hasOwn(branches, "other")) return null;
  return { block: { param: head[1], branches }, end: close + 1 };
}

/** A piece of a template: literal text (with simple placeholders) or a plural block with its source text. */
type Segment = { text: string } | { block: PluralBlock; source: string };

/** Cuts a template into literal text and well-formed plural blocks, in order (anything malformed stays text). */
function segments(template: string): Segment[] {
  const out: Segment[] = [];
  let last = 0;
  for (let i = template.indexOf("{"); i >= 0; i = template.indexOf("{", i + 1)) {
    const parsed = parsePlural(template, i);
    if (!parsed) continue;
    if (i > last) out.push({ text: template.slice(last, i) });
    out.push({ block: parsed.block, source: template.slice(i, parsed.end) });
    last = parsed.end;
    i = parsed.end - 1;
  }
  if (last < template.length) out.push({ text: template.slice(last) });
  return out;
}

/**
 * Every plural block of a template, in order (used by the catalogue tests to check each language has the forms its
 * plural rules ask for).
 */
export function pluralBlocks(template: string): PluralBlock[] {
  return segments(template).flatMap((s) => ("block" in s ? [s.block] : []));
}

/**
 * The parameter names a template uses, simple placeholders and plural selectors alike, sorted and unique
 * (e.g. "{device} … {days, plural, one {# day} other {# days}}" → ["days", "device"]).
 */
export function templateParams(template: string): string[] {
  const names = new Set<string>();
  for (const s of segments(template)) {
    if ("block" in s) {
      names.add(s.block.param);
      for (const branch of Object.values(s.block.branches)) for (const n of templateParams(branch)) names.add(n);
    } else {
      for (const m of s.text.matchAll(/\{(\w+)\}/g)) names.add(m[1]);
    }
  }
  return [...names].sort();
}

/** Replaces the simple `{name}` placeholders; unknown names stay as they are (a typo shows up). */
function fillPlaceholders(text: string, params: MessageParams): string {
  return text.replace(/\{(\w+)\}/g, (whole, name: string) =>
    Object.hasOwn(params, name) ? String(params[name]) : whole,
  );
}

/**
 * Fills a template in `lang` (a BCP 47 tag such as "ru" or "zh-Hans").
 * A plural block whose parameter is missing or not a finite number is left as it is, like an unknown placeholder.
 * Examples: ru `{n, plural, one {# день} few {# дня} many {# дней} other {# дня}}` with n 1 → "1 день",
 * 3 → "3 дня", 5 → "5 дней", 21 → "21 день", 1.5 → "1.5 дня".
 */
export function formatMessage(lang: string, template: string, params: MessageParams = {}): string {
  return segments(template)
    .map((s) => {
      if (!("block" in s)) return fillPlaceholders(s.text, params);
      const { param, branches } = s.block;
      const value = Object.hasOwn(params, param) ? Number(params[param]) : Number.NaN;
      if (!Number.isFinite(value)) return s.source;
      const branch = branches[`=${value}`] ?? branches[new Intl.PluralRules(lang).select(value)] ?? branches.other;
      return fillPlaceholders(branch.replace(/#/g, String(params[param])), params);
    })
    .join("");
}
