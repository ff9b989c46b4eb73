/**
 * bench/results.md: one Markdown table of every benchmark (server rows, then the web rows of issue 12) followed by one
 * note per part. A run of one part only (`npm run bench -- web` or `-- server`) keeps the other part's rows and note
 * from the existing file.
 */

/** The table's header. */
export const RESULTS_HEADER = [
  "| Benchmark | Metric | System | Bare baseline | System ÷ bare |",
  "| --- | --- | ---: | ---: | ---: |",
];

/** The rows and the note of one part of the benchmark. */
export interface ResultsPart {
  rows: string[];
  note: string;
}

/**
 * Rows and notes that belong to the web part start with this: the first row of a web block ("Web first screen …",
 * "Web #/Device …", "Web repeat visit …") and the web note ("Web first screen: measured …").
 */
const WEB_PREFIX = /^(\| )?Web /;

/**
 * Splits an existing results.md into its server and web parts. A table block starts at a row with a benchmark name
 * and runs on through the rows with an empty first cell; blocks and notes starting with "Web " are web's.
 * Returns empty parts for a missing or empty file.
 */
export function splitResults(markdown: string | null): { server: ResultsPart; web: ResultsPart } {
  const server: ResultsPart = { rows: [], note: "" };
  const web: ResultsPart = { rows: [], note: "" };
  if (!markdown) return { server, web };
  let current: ResultsPart = server;
  for (const line of markdown.split("\n")) {
    if (line.startsWith("|")) {
      if (RESULTS_HEADER.includes(line)) continue;
      if (!line.startsWith("| |")) current = WEB_PREFIX.test(line) ? web : server;
      current.rows.push(line);
    } else if (line.trim()) {
      const part = WEB_PREFIX.test(line) ? web : server;
      part.note = part.note ? `${part.note}\n\n${line}` : line;
    }
  }
  return { server, web };
}

/** The whole results.md: header, server rows, web rows, then the notes (server first), blank-line separated. */
export function composeResults(server: ResultsPart, web: ResultsPart): string {
  const notes = [server.note, web.note].filter(Boolean);
  return `${[...RESULTS_HEADER, ...server.rows, ...web.rows].join("\n")}\n${notes.map((n) => `\n${n}\n`).join("")}`;
}
