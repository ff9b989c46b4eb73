import fs from "node:fs";
import { monitorEventLoopDelay } from "node:perf_hooks";

/**
 * TEMPORARY measurement aid (issue 14, PostgreSQL fleet path): with AQUAPILOT_TRACE_FILE set, every 5 s one JSON line
 * of write-batch figures (batches, tasks per batch, statements per batch, queue wait and write time in ms) and the
 * event-loop delay is appended to that file. Without the variable every call is a no-op.
 */
const file = process.env.AQUAPILOT_TRACE_FILE;
const waits: number[] = [];
const writes: number[] = [];
const sizes: number[] = [];
let statements = 0;
let batches = 0;
const stmtKinds = new Map<string, number>();
const h = file ? monitorEventLoopDelay({ resolution: 10 }) : null;
h?.enable();
const pct = (a: number[], p: number) => {
  if (a.length === 0) return 0;
  const s = [...a].sort((x, y) => x - y);
  return Math.round(s[Math.min(s.length - 1, Math.floor((p / 100) * s.length))] * 10) / 10;
};
if (file) {
  setInterval(() => {
    const line = {
      t: new Date().toISOString(),
      batches,
      tasksAvg: sizes.length ? Math.round((sizes.reduce((a, b) => a + b, 0) / sizes.length) * 10) / 10 : 0,
      tasksMax: Math.max(0, ...sizes),
      stmtPerBatch: batches ? Math.round((statements / batches) * 10) / 10 : 0,
      kinds: Object.fromEntries(stmtKinds),
      waitP50: pct(waits, 50),
      waitP99: pct(waits, 99),
      writeP50: pct(writes, 50),
      writeP99: pct(writes, 99),
      writeMax: pct(writes, 100),
      eldP50: h ? Math.round(h.percentile(50) / 1e5) / 10 : 0,
      eldP99: h ? Math.round(h.percentile(99) / 1e5) / 10 : 0,
      eldMax: h ? Math.round(h.max / 1e5) / 10 : 0,
    };
    fs.appendFileSync(file, `${JSON.stringify(line)}\n`);
    waits.length = 0;
    writes.length = 0;
    sizes.length = 0;
    statements = 0;
    batches = 0;
    stmtKinds.clear();
    h?.reset();
  }, 5000).unref();
}

/** Notes one written batch: its tasks, ms from its first entry to the write's start, ms of the write. */
export function traceBatch(tasks: number, waitMs: number, writeMs: number): void {
  if (!file) return;
  batches++;
  sizes.push(tasks);
  waits.push(waitMs);
  writes.push(writeMs);
}

/** Notes one SQL statement sent (first word and table). */
export function traceStatement(sql: string): void {
  if (!file) return;
  statements++;
  const m = /^\s*(\w+)(?:.*?\b(?:into|update|from)\s+"?(\w+)"?)?/is.exec(sql);
  const k = `${m?.[1]?.toLowerCase() ?? "?"} ${m?.[2] ?? ""}`.trim();
  stmtKinds.set(k, (stmtKinds.get(k) ?? 0) + 1);
}

const errors = new Map<string, number>();
/** Notes a failed batch's error message. */
export function traceError(err: Error): void {
  if (!file) return;
  const k = String(err?.message ?? err).slice(0, 120);
  errors.set(k, (errors.get(k) ?? 0) + 1);
  fs.appendFileSync(file, `${JSON.stringify({ error: k, n: errors.get(k) })}\n`);
}
