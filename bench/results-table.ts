/**
 * bench/results.md: one Markdown table of every benchmark (server rows, then the web rows, then the fleet
 * rows) followed by one note per part. A run of one part only (`npm run bench -- web`, `-- server` or
 * `-- --fleet`) keeps the other parts' rows and notes from the existing file.
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
/** Rows and notes of the fleet part start with "Fleet " ("Fleet push …", "Fleet scale-out …"). */
const FLEET_PREFIX = /^(\| )?Fleet /;

/** The parts of results.md. */
export interface ResultsParts {
  server: ResultsPart;
  web: ResultsPart;
  fleet: ResultsPart;
}

/**
 * Splits an existing results.md into its server, web and fleet parts. A table block starts at a row with a benchmark
 * name and runs on through the rows with an empty first cell; blocks and notes starting with "Web " are web's, with
 * "Fleet " the fleet's, the others the server's. Returns empty parts for a missing or empty file.
 */
export function splitResults(markdown: string | null): ResultsParts {
  const parts: ResultsParts = {
    server: { rows: [], note: "" },
    web: { rows: [], note: "" },
    fleet: { rows: [], note: "" },
  };
  if (!markdown) return parts;
  const partOf = (line: string) =>
    WEB_PREFIX.test(line) ? parts.web : FLEET_PREFIX.test(line) ? parts.fleet : parts.server;
  let current: ResultsPart = parts.server;
  for (const line of markdown.split("\n")) {
    if (line.startsWith("|")) {
      if (RESULTS_HEADER.includes(line)) continue;
      if (!line.startsWith("| |")) current = partOf(line);
      current.rows.push(line);
    } else if (line.trim()) {
      const part = partOf(line);
      part.note = part.note ? `${part.note}\n\n${line}` : line;
    }
  }
  return parts;
}

/**
 * The whole results.md: header, server rows, web rows, fleet rows, then the notes in the same order, blank-line
 * separated. `fleet` may be left out (no fleet rows).
 */
export function composeResults(server: ResultsPart, web: ResultsPart, fleet?: ResultsPart): string {
  const notes = [server.note, web.note, fleet?.note ?? ""].filter(Boolean);
  const rows = [...RESULTS_HEADER, ...server.rows, ...web.rows, ...(fleet?.rows ?? [])];
  return `${rows.join("\n")}\n${notes.map((n) => `\n${n}\n`).join("")}`;
}
