import { StringDecoder } from "node:string_decoder";

/**
 * The record separator of the SignalR JSON hub protocol (ASCII 0x1E): every JSON record, the handshake included,
 * ends with it (aspnetcore src/SignalR/docs/specs/HubProtocol.md, "JSON Encoding").
 */
export const RECORD_SEPARATOR = "\u001e";

/** Serialises one message as a JSON record: `JSON.stringify(message)` followed by {@link RECORD_SEPARATOR}. */
export function writeRecord(message: unknown): string {
  return JSON.stringify(message) + RECORD_SEPARATOR;
}

/** Thrown by {@link RecordReader.push} when a record grows beyond the reader's limit without its separator. */
export class RecordTooLargeError extends Error {
  constructor(limit: number) {
    super(`A hub message exceeded the maximum size of ${limit} characters.`);
    this.name = "RecordTooLargeError";
  }
}

/**
 * Splits the incoming text stream of one connection into JSON records. A transport message may carry several records,
 * and a record may be split across messages (and a UTF-8 character across byte chunks): the reader keeps the
 * unfinished tail until its separator arrives.
 */
export class RecordReader {
  private readonly decoder = new StringDecoder("utf8");
  private pending = "";

  private readonly maxRecordChars: number;
  /** @param maxRecordChars the longest record accepted, in characters (separator excluded). */
  constructor(maxRecordChars = 32 * 1024) {
    this.maxRecordChars = maxRecordChars;
  }

  /**
   * Adds a chunk (text, or UTF-8 bytes) and returns the records it completes, in order, without their separators.
   * Empty records (two separators in a row) are returned as "" so the caller can reject them.
   * @throws RecordTooLargeError when the unfinished record exceeds `maxRecordChars`.
   */
  push(chunk: string | Uint8Array): string[] {
    const text = typeof chunk === "string" ? chunk : this.decoder.write(Buffer.from(chunk));
    const records: string[] = [];
    let start = 0;
    let data = this.pending + text;
    for (let end = data.indexOf(RECORD_SEPARATOR); end !== -1; end = data.indexOf(RECORD_SEPARATOR, start)) {
      if (end - start > this.maxRecordChars) throw new RecordTooLargeError(this.maxRecordChars);
      records.push(data.slice(start, end));
      start = end + 1;
    }
    data = data.slice(start);
    if (data.length > this.maxRecordChars) throw new RecordTooLargeError(this.maxRecordChars);
    this.pending = data;
    return records;
  }

  /** Characters received after the last complete record (an unfinished record). */
  get bufferedChars(): number {
    return this.pending.length;
  }
}
