import { describe, expect, it } from "vitest";
import { composeResults, RESULTS_HEADER, splitResults } from "./results-table.ts";

const server = {
  rows: ["| HTTP family-device list | Throughput (req/s) | 1 | 2 | ×0.50 |", "| | Latency p50 (ms) | 3 | 4 | ×0.75 |"],
  note: "Measured 2026-11-22 on 2 cores.",
};
const web = {
  rows: [
    "| Web first screen #/login, Lighthouse | Performance score | 57 | 100 | ×0.57 |",
    "| | LCP (ms) | 7 | 1 | ×7.00 |",
    "| Web #/Device (first device) signed in | Performance score | 80 | 100 | ×0.80 |",
    "| | Time to interactive (ms; goal 2,000) | 3,700 | 905 | ×4.09 |",
    "| Web repeat visit #/index/home signed in | Code requests that reached the network | 0 of 27 | 9 of 9 | n/a |",
  ],
  note: "Web first screen: measured 2026-11-24 with Lighthouse 12.",
};

describe("bench/results.md (server and web parts)", () => {
  it("writes one table, server rows first, then the notes", () => {
    const md = composeResults(server, web);
    const lines = md.split("\n");
    expect(lines.slice(0, 2)).toEqual(RESULTS_HEADER);
    expect(lines.slice(2, 9)).toEqual([...server.rows, ...web.rows]);
    expect(md.indexOf(server.note)).toBeGreaterThan(md.indexOf(web.rows[1]));
    expect(md.indexOf(web.note)).toBeGreaterThan(md.indexOf(server.note));
  });

  it("splits a file back into its parts, continuation rows with their block", () => {
    const parts = splitResults(composeResults(server, web));
    expect(parts.server).toEqual(server);
    expect(parts.web).toEqual(web);
  });

  it("keeps the other part when one part is run again", () => {
    const before = composeResults(server, web);
    const newWeb = {
      rows: ["| Web first screen #/login, Lighthouse | Performance score | 98 | 100 | ×0.98 |"],
      note: "Web first screen: again.",
    };
    const after = splitResults(composeResults(splitResults(before).server, newWeb));
    expect(after.server).toEqual(server);
    expect(after.web).toEqual(newWeb);
  });

  it("reads a file written before the web part as server only", () => {
    const old = `${[...RESULTS_HEADER, ...server.rows].join("\n")}\n\n${server.note}\n`;
    const parts = splitResults(old);
    expect(parts.server).toEqual(server);
    expect(parts.web).toEqual({ rows: [], note: "" });
    expect(parts.fleet).toEqual({ rows: [], note: "" });
    expect(splitResults(null).server.rows).toEqual([]);
  });

  it("keeps the fleet part apart: its own rows and note survive a server or web run, and it theirs", () => {
    const fleet = {
      rows: [
        "| Fleet push, 10,000 devices | Latency p99 (ms; goal 50) | 40 | 4 | ×10.00 |",
        "| | Lost | 0 | 0 | n/a |",
      ],
      note: "Fleet push: measured 2026-11-28.",
    };
    const md = composeResults(server, web, fleet);
    expect(md.split("\n").slice(2, 11)).toEqual([...server.rows, ...web.rows, ...fleet.rows]);
    const parts = splitResults(md);
    expect(parts).toEqual({ server, web, fleet });
    const newServer = { rows: ["| HTTP family-device list | Throughput (req/s) | 9 | 9 | ×1.00 |"], note: "Again." };
    expect(splitResults(composeResults(newServer, parts.web, parts.fleet))).toEqual({ server: newServer, web, fleet });
  });
});
