import { describe, expect, it } from "vitest";
import { RECORD_SEPARATOR, RecordReader, RecordTooLargeError, writeRecord } from "./framing.ts";
import { closeMessage, parseClientMessage, parseHandshakeRequest } from "./protocol.ts";

describe("record framing", () => {
  it("ends every record with 0x1E", () => {
    expect(writeRecord({ type: 6 })).toBe('{"type":6}\u001e');
    expect(RECORD_SEPARATOR.charCodeAt(0)).toBe(0x1e);
  });

  it("splits several records carried by one chunk", () => {
    const reader = new RecordReader();
    expect(reader.push('{"protocol":"json","version":1}\u001e{"type":6}\u001e')).toEqual([
      '{"protocol":"json","version":1}',
      '{"type":6}',
    ]);
    expect(reader.bufferedChars).toBe(0);
  });

  it("keeps a partial record until its separator arrives in a later chunk", () => {
    const reader = new RecordReader();
    expect(reader.push('{"type":1,"tar')).toEqual([]);
    expect(reader.bufferedChars).toBe(14);
    expect(reader.push('get":"A","arguments":[]}\u001e{"ty')).toEqual(['{"type":1,"target":"A","arguments":[]}']);
    expect(reader.push('pe":6}')).toEqual([]);
    expect(reader.push("\u001e")).toEqual(['{"type":6}']);
  });

  it("reassembles a UTF-8 character split across byte chunks", () => {
    const bytes = Buffer.from(writeRecord({ text: "软水机 ü" }));
    const cut = bytes.indexOf(Buffer.from("水")) + 1; // inside the 3-byte character
    const reader = new RecordReader();
    expect(reader.push(bytes.subarray(0, cut))).toEqual([]);
    const records = reader.push(bytes.subarray(cut));
    expect(records.map((r) => JSON.parse(r))).toEqual([{ text: "软水机 ü" }]);
  });

  it("returns an empty record for two separators in a row", () => {
    expect(new RecordReader().push("\u001e\u001e")).toEqual(["", ""]);
  });

  it("refuses a record longer than the limit, finished or not", () => {
    expect(() => new RecordReader(10).push("x".repeat(11))).toThrow(RecordTooLargeError);
    expect(() => new RecordReader(10).push(`${"x".repeat(11)}\u001e`)).toThrow(RecordTooLargeError);
    expect(new RecordReader(10).push(`${"x".repeat(10)}\u001e`)).toEqual(["x".repeat(10)]);
  });
});

describe("hub protocol messages", () => {
  it("accepts the json handshake, versions 1 and 2", () => {
    expect(parseHandshakeRequest('{"protocol":"json","version":1}')).toEqual({
      ok: true,
      value: { protocol: "json", version: 1 },
    });
    expect(parseHandshakeRequest('{"protocol":"json","version":2}').ok).toBe(true);
  });

  it("refuses other protocols, versions and malformed handshakes", () => {
    expect(parseHandshakeRequest('{"protocol":"messagepack","version":1}')).toEqual({
      ok: false,
      error: "The protocol 'messagepack' is not supported.",
    });
    expect(parseHandshakeRequest('{"protocol":"json","version":3}')).toEqual({
      ok: false,
      error: "The server does not support version 3 of the 'json' protocol.",
    });
    expect(parseHandshakeRequest("not json").ok).toBe(false);
    expect(parseHandshakeRequest("[1]").ok).toBe(false);
  });

  it("parses client messages", () => {
    expect(parseClientMessage('{"type":6}')).toEqual({ ok: true, value: { type: 6 } });
    expect(parseClientMessage('{"type":1,"invocationId":"7","target":"Echo","arguments":[1]}')).toEqual({
      ok: true,
      value: { type: 1, target: "Echo", invocationId: "7" },
    });
    expect(parseClientMessage('{"type":1,"target":"Echo","arguments":[]}')).toEqual({
      ok: true,
      value: { type: 1, target: "Echo", invocationId: null },
    });
    expect(parseClientMessage('{"type":7,"error":"bye"}')).toEqual({ ok: true, value: { type: 7, error: "bye" } });
    expect(parseClientMessage('{"type":1,"target":"Echo"}').ok).toBe(false);
    expect(parseClientMessage('{"type":42}').ok).toBe(false);
    expect(parseClientMessage("").ok).toBe(false);
  });

  it("writes close messages with optional error and allowReconnect", () => {
    expect(closeMessage()).toEqual({ type: 7 });
    expect(closeMessage("revoked", false)).toEqual({ type: 7, error: "revoked", allowReconnect: false });
  });
});
