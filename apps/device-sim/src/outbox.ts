import type { TMqttEvent, TMqttTelemetry } from "@aquapilot/contract";

/** A report the device keeps until the cloud's receipt (docs/device-protocol.md §3.6). */
export type OutboxReport =
  | { channel: "telemetry"; body: TMqttTelemetry & { id: string } }
  | { channel: "event"; body: TMqttEvent };

/** Options of {@link ReportOutbox}. */
export interface ReportOutboxOptions {
  /** Most reports kept; when full, the oldest is dropped to make room (default {@link DEFAULT_OUTBOX_REPORTS}). */
  maxReports?: number;
  /**
   * How long a sent report may wait for its receipt before the device sends every unreceipted report again, ms
   * (default {@link DEFAULT_RECEIPT_TIMEOUT_MS}); doubled after each such resend that brings no receipt, up to
   * {@link RECEIPT_TIMEOUT_GROWTH} times, and back to this when a receipt comes.
   */
  receiptTimeoutMs?: number;
}

/** Default most reports an outbox keeps: 1,000 (nearly 3 hours of telemetry every 10 s). */
export const DEFAULT_OUTBOX_REPORTS = 1000;
/** Default wait for a receipt before sending again, ms (docs/device-protocol.md §3.6). */
export const DEFAULT_RECEIPT_TIMEOUT_MS = 30_000;
/**
 * Most the receipt timeout grows while no receipt comes, as a multiple of its initial value (30 s → 8 min): a cloud
 * that sends no receipts (a broker that drops them) costs a full outbox every few minutes, not every 30 s.
 */
export const RECEIPT_TIMEOUT_GROWTH = 16;

interface Kept {
  report: OutboxReport;
  /** When it was last handed to the connection (the caller's clock, ms); null while never sent. */
  sentAt: number | null;
}

/**
 * A device's outbox (docs/device-protocol.md §3.6): its telemetry and events, each under its report id, from when they
 * are made until the cloud's receipt names them, oldest first. The device sends a report when it is made (if
 * connected), every kept report again after each (re)connection, and every kept report again when the oldest sent one
 * waited the receipt timeout ({@link ReportOutboxOptions.receiptTimeoutMs}, doubled by each {@link backOff} until a
 * receipt comes) — always oldest first, so the cloud sees the device's counters in the order they were metered. Pure:
 * the caller sends and keeps the time.
 */
export class ReportOutbox {
  private readonly kept = new Map<string, Kept>();
  private readonly maxReports: number;
  private readonly receiptTimeoutMs: number;
  /** The receipt timeout now, ms: {@link receiptTimeoutMs} grown by {@link backOff}. */
  private timeoutMs: number;
  private droppedCount = 0;

  /**
   * @param options size bound and receipt timeout.
   * @throws RangeError when `maxReports` is not a positive integer or `receiptTimeoutMs` is not positive.
   */
  constructor(options: ReportOutboxOptions = {}) {
    this.maxReports = options.maxReports ?? DEFAULT_OUTBOX_REPORTS;
    this.receiptTimeoutMs = options.receiptTimeoutMs ?? DEFAULT_RECEIPT_TIMEOUT_MS;
    if (!Number.isInteger(this.maxReports) || this.maxReports < 1) throw new RangeError("maxReports must be ≥ 1");
    if (!(this.receiptTimeoutMs > 0)) throw new RangeError("receiptTimeoutMs must be > 0");
    this.timeoutMs = this.receiptTimeoutMs;
  }

  /** The receipt timeout now, ms. */
  get currentTimeoutMs(): number {
    return this.timeoutMs;
  }

  /**
   * Doubles the receipt timeout (at most {@link RECEIPT_TIMEOUT_GROWTH} times its initial value): the caller is about
   * to send the kept reports again because their receipt is overdue.
   */
  backOff(): void {
    this.timeoutMs = Math.min(this.timeoutMs * 2, this.receiptTimeoutMs * RECEIPT_TIMEOUT_GROWTH);
  }

  /** Reports kept (waiting for their receipt). */
  get size(): number {
    return this.kept.size;
  }

  /** Reports dropped unreceipted because the outbox was full, since it was made. */
  get dropped(): number {
    return this.droppedCount;
  }

  /**
   * Keeps `report` under its id, after every report kept before it; a report already kept under that id is left as
   * it is. When the outbox is full the oldest report is dropped (counted in {@link dropped}).
   */
  add(report: OutboxReport): void {
    const id = report.body.id;
    if (this.kept.has(id)) return;
    if (this.kept.size >= this.maxReports) {
      const oldest = this.kept.keys().next().value as string;
      this.kept.delete(oldest);
      this.droppedCount += 1;
    }
    this.kept.set(id, { report, sentAt: null });
  }

  /**
   * Forgets the reports a receipt names (ids not kept are ignored); answers how many it forgot. Any receipt sets the
   * receipt timeout back to its initial value: the cloud answers.
   */
  receipt(ids: Iterable<string>): number {
    let forgotten = 0;
    for (const id of ids) if (this.kept.delete(id)) forgotten += 1;
    this.timeoutMs = this.receiptTimeoutMs;
    return forgotten;
  }

  /** The kept reports, oldest first (a copy). */
  reports(): OutboxReport[] {
    return [...this.kept.values()].map((k) => k.report);
  }

  /**
   * Notes that the report `id` is handed to the connection at `nowMs`; answers whether it was sent before (a telemetry
   * record then goes out marked `resent`).
   */
  sent(id: string, nowMs: number): boolean {
    const kept = this.kept.get(id);
    if (!kept) return false;
    const before = kept.sentAt !== null;
    kept.sentAt = nowMs;
    return before;
  }

  /**
   * Whether the kept reports are due to be sent again at `nowMs`: the oldest sent one has waited at least the receipt
   * timeout since it was sent (reports are sent oldest first, so it is the first sent one kept).
   */
  resendDue(nowMs: number): boolean {
    for (const { sentAt } of this.kept.values()) {
      if (sentAt !== null) return nowMs - sentAt >= this.timeoutMs;
    }
    return false;
  }
}
