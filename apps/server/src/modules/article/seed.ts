import { createHash } from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { LANGUAGES, type Language, type TArticle } from "@aquapilot/contract";
import type { Db } from "../../db/index.ts";

/** The folder of the seeded help content: content/<language>/<article id>.md. */
export const ARTICLE_CONTENT_DIR = fileURLToPath(new URL("./content/", import.meta.url));

/** One language version of an article as written in its Markdown file. */
export interface ArticleSeed {
  id: string;
  language: Language;
  category: TArticle["category"];
  sort: number;
  title: string;
  summary: string;
  content: string;
}

const ID = /^[a-z0-9][a-z0-9-]{0,63}$/;
const FRONT_MATTER = /^---\r?\n([\s\S]*?)\r?\n---\r?\n?([\s\S]*)$/;

/**
 * Parses one content file: front matter between `---` lines (`title`, `summary`, `category` help | policy, `sort`
 * integer; one `key: value` per line) followed by the Markdown body.
 * @throws Error naming the file when the front matter is missing or a field is absent or wrong.
 */
export function parseArticleFile(
  text: string,
  id: string,
  language: Language,
  file = `${language}/${id}.md`,
): ArticleSeed {
  const m = FRONT_MATTER.exec(text);
  if (!m) throw new Error(`${file}: no front matter`);
  const fields: Record<string, string> = {};
  for (const line of m[1].split(/\r?\n/)) {
    if (!line.trim()) continue;
    const at = line.indexOf(":");
    if (at < 1) throw new Error(`${file}: bad front matter line "${line}"`);
    fields[line.slice(0, at).trim()] = line.slice(at + 1).trim();
  }
  const { title, summary, category } = fields;
  const sort = Number(fields.sort);
  if (!title || !summary) throw new Error(`${file}: title and summary are required`);
  if (category !== "help" && category !== "policy") throw new Error(`${file}: category must be help or policy`);
  if (!Number.isInteger(sort)) throw new Error(`${file}: sort must be an integer`);
  const content = m[2].trim();
  if (!content) throw new Error(`${file}: empty body`);
  return { id, language, category, sort, title, summary, content: `${content}\n` };
}

/**
 * Reads every content file under `dir` (default {@link ARTICLE_CONTENT_DIR}): one folder per language of spec §1,
 * one `<id>.md` per article (id: lower-case letters, digits and hyphens). Answers them sorted by id and language.
 * @throws Error for a file that does not parse, or an article without a zh-Hans version (the fallback language).
 */
export function loadArticleSeeds(dir = ARTICLE_CONTENT_DIR): ArticleSeed[] {
  const seeds: ArticleSeed[] = [];
  for (const language of LANGUAGES) {
    const folder = path.join(dir, language);
    if (!fs.existsSync(folder)) continue;
    for (const name of fs.readdirSync(folder).sort()) {
      if (!name.endsWith(".md")) continue;
      const id = name.slice(0, -3);
      if (!ID.test(id)) throw new Error(`${language}/${name}: bad article id`);
      seeds.push(parseArticleFile(fs.readFileSync(path.join(folder, name), "utf8"), id, language));
    }
  }
  const zh = new Set(seeds.filter((s) => s.language === "zh-Hans").map((s) => s.id));
  const orphan = seeds.find((s) => !zh.has(s.id));
  if (orphan) throw new Error(`article ${orphan.id} has no zh-Hans version (the fallback language)`);
  return seeds.sort((a, b) => a.id.localeCompare(b.id) || a.language.localeCompare(b.language));
}

/**
 * The text keyword search runs on (title, summary, content, or the keyword itself): NFKC-normalised, lower-cased in
 * JavaScript (so both engines compare the same characters; SQLite's lower() only folds ASCII), Markdown markers
 * (`* _ # > \``, table bars) and runs of white space turned into single spaces.
 */
export function searchable(text: string): string {
  return text
    .normalize("NFKC")
    .toLowerCase()
    .replace(/[*_#>`|]/g, " ")
    .replace(/\s+/g, " ")
    .trim();
}

function hashOf(s: ArticleSeed): string {
  return createHash("sha256")
    .update(JSON.stringify([s.category, s.sort, s.title, s.summary, s.content]))
    .digest("hex");
}

let cached: ArticleSeed[] | null = null;

/**
 * Upserts the seeded articles (help for owners and the policies, five languages) in one statement:
 * `INSERT … ON CONFLICT (id, language) DO UPDATE … WHERE content_hash differs`, so it is safe on every start, a
 * second run changes nothing (last_modification_time moves only when a text changed), and two servers starting
 * together on one PostgreSQL both succeed (the upsert is atomic per row). Articles not in the files are left alone.
 * `seeds` defaults to {@link loadArticleSeeds} (read once per process). Answers how many rows were inserted or
 * changed.
 */
export async function seedArticles(db: Db, now: Date, seeds?: ArticleSeed[]): Promise<number> {
  if (!seeds && !cached) cached = loadArticleSeeds();
  const rows = seeds ?? cached ?? [];
  if (rows.length === 0) return 0;
  const at = now.toISOString();
  const res = await db
    .insertInto("articles")
    .values(
      rows.map((s) => ({
        id: s.id,
        language: s.language,
        category: s.category,
        sort: s.sort,
        title: s.title,
        summary: s.summary,
        content: s.content,
        search_text: searchable(`${s.title}\n${s.summary}\n${s.content}`),
        content_hash: hashOf(s),
        last_modification_time: at,
      })),
    )
    .onConflict((oc) =>
      oc
        .columns(["id", "language"])
        .doUpdateSet((eb) => ({
          category: eb.ref("excluded.category"),
          sort: eb.ref("excluded.sort"),
          title: eb.ref("excluded.title"),
          summary: eb.ref("excluded.summary"),
          content: eb.ref("excluded.content"),
          search_text: eb.ref("excluded.search_text"),
          content_hash: eb.ref("excluded.content_hash"),
          last_modification_time: eb.ref("excluded.last_modification_time"),
        }))
        .where((eb) => eb("articles.content_hash", "<>", eb.ref("excluded.content_hash"))),
    )
    .executeTakeFirst();
  return Number(res.numInsertedOrUpdatedRows ?? 0);
}
