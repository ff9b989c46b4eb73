import { describe, expect, it } from "vitest";
import vectors from "../vectors/blsync-stock.json" with { type: "json" };
import {
  answerFrames,
  BLSYNC_MAX_FRAME,
  BlsyncAssembler,
  BlsyncData,
  BlsyncFrameType,
  BlsyncReceiver,
  BlsyncResult,
  commandFrames,
  dataFrames,
  decodeFrame,
  discardFrame,
} from "./blsync.ts";
import { fromHex, toHex, utf8 } from "./bytes.ts";
import {
  decodeSdkWifiState,
  decodeStatusExtension,
  encodeSdkWifiState,
  setupTicketData,
  statusExtensionRequest,
} from "./setup.ts";

/**
 * The app's encoder and decoder and the module-side receiver against vectors/blsync-stock.json: what Bouffalo Lab's
 * blsync_ble layers (transfer.c, encrypt_layer.c, payload.c compiled on a host; vectors/README.md) parsed from each
 * frame and the frames they answered.
 */

const hex = (frames: Uint8Array[]) => frames.map(toHex);

/** Reads a whole answer from its frames. */
function answerOf(frames: string[]) {
  const asm = new BlsyncAssembler();
  let message = null;
  for (const f of frames) message = asm.push(fromHex(f));
  if (!message) throw new Error("answer never ended");
  return message;
}

describe("blsync against the SDK's own code (vectors/blsync-stock.json)", () => {
  it("encodes SSIDs and passwords (ASCII, UTF-8, 32-byte SSID, 64-byte and empty passwords) as the SDK parsed them", () => {
    expect(vectors.data.map((d) => d.bytes)).toEqual(expect.arrayContaining([32, 64, 0]));
    vectors.data.forEach((d, i) => {
      expect(hex(dataFrames(d.id as BlsyncData, utf8(d.text), (i * 8) & 0xff)), d.name).toEqual(d.frames);
      for (const f of d.frames) expect(fromHex(f).length).toBeLessThanOrEqual(BLSYNC_MAX_FRAME);
      expect(d.crash).toBeNull();
      // Every frame taken (0), the event raised by the last with the whole text.
      expect(d.results.map((r) => r.ret)).toEqual(d.frames.map(() => 0));
      expect(d.results.at(-1)?.events).toEqual([{ type: 1, id: d.id, data: toHex(utf8(d.text)) }]);
    });
  });

  it("sends commands in two frames of ≤ 20 bytes, or one of 21 when the MTU allows, as the SDK took them", () => {
    for (const c of vectors.commands) {
      const i = [7, 3, 13, 12].indexOf(c.id);
      expect(hex(commandFrames(c.id as 7, 0x40 + i * 2, c.maxFrame)), c.name).toEqual(c.frames);
      expect(c.frames).toHaveLength(c.maxFrame < 21 ? 2 : 1);
      expect(c.crash).toBeNull();
      expect(c.results.at(-1)?.events).toEqual([{ type: 0, id: c.id, data: "00000000" }]);
    }
  });

  it("the module-side receiver parses every vector frame into the SDK's events", () => {
    for (const d of [...vectors.data, ...vectors.commands]) {
      const receiver = new BlsyncReceiver();
      const got = d.frames.map((f) => receiver.receive(fromHex(f)));
      d.results.forEach((r, i) => {
        const g = got[i];
        expect(g.kind, d.name).toBe(r.events.length > 0 ? "message" : "fragment");
        if (g.kind === "message") {
          expect({ type: g.type, id: g.id, data: toHex(g.data) }).toEqual(r.events[0]);
        }
      });
    }
  });

  it("writes answers byte for byte as the SDK's __protocol_send, and reads them back", () => {
    for (const c of vectors.commands) {
      const r = c.results.at(-1);
      const seq = fromHex(c.frames.at(-1) as string)[1];
      if (c.id === 7) {
        expect(hex(answerFrames(seq, BlsyncResult.Ok, utf8("v1.1.0\0")))).toEqual(r?.answers);
      } else if (c.id !== 13) {
        expect(hex(answerFrames(seq, BlsyncResult.Ok))).toEqual(r?.answers);
      }
    }
    for (const a of vectors.stateAnswers) {
      const json = encodeSdkWifiState({ ...a.state, ssid: a.state.ssid });
      expect(hex(answerFrames(7, BlsyncResult.Ok, json, a.mtu)), `${a.mtu} ${a.state.ssid}`).toEqual(a.answers);
      const message = answerOf(a.answers);
      expect(message).toMatchObject({ ack: true, id: BlsyncResult.Ok, seq: 7, type: BlsyncFrameType.Data });
      expect(decodeSdkWifiState(message.data)).toEqual(a.state);
    }
  });

  it("drops an answer of 256 bytes or more, as the SDK does", () => {
    for (const a of vectors.answerLimit) {
      expect(hex(answerFrames(9, BlsyncResult.Ok, new Uint8Array(a.length).fill(0x78), 244))).toEqual(a.answers);
      expect(answerOf(a.answers).data.length).toBe(a.length <= 255 ? a.length : 0);
    }
  });

  it("answers 0xfe to frames it cannot parse, the app's old compact frame among them", () => {
    for (const c of vectors.refused) {
      expect(c.crash).toBeNull();
      const receiver = new BlsyncReceiver();
      c.frames.forEach((f, i) => {
        const got = receiver.receive(fromHex(f));
        expect(got.kind, c.name).toBe("refused");
        expect(hex(answerFrames(got.seq, BlsyncResult.FrameError))).toEqual(c.writes[i].answers);
      });
    }
    expect(toHex(discardFrame(0x20))).toBe(vectors.refused[3].frames[0]);
  });

  it("crashes where the SDK crashed: a fragment sent again, a new message over a held one", () => {
    for (const c of vectors.crashes) {
      expect(c.crash, c.name).toMatch(/SEGV/);
      const receiver = new BlsyncReceiver();
      const got = c.frames.map((f) => receiver.receive(fromHex(f)));
      expect(got.slice(0, c.writes.length).map((g) => g.kind)).not.toContain("crash");
      expect(got[c.writes.length]).toMatchObject({ kind: "crash", reason: "null-write" });
    }
  });

  it("recovers with the discard frame, then the whole message anew", () => {
    const r = vectors.recovery;
    expect(r.crash).toBeNull();
    const receiver = new BlsyncReceiver();
    const kinds = r.frames.map((f) => receiver.receive(fromHex(f)).kind);
    expect(kinds).toEqual(["fragment", "refused", "fragment", "message"]);
    expect(r.writes.map((w) => w.ret)).toEqual([0, -2, 0, 0]);
    expect(r.writes.at(-1)?.events).toEqual([{ type: 1, id: 2, data: toHex(utf8("AquaHome")) }]);
  });

  it("carries the product's custom data through the stock layers: the ticket, the status extension", () => {
    const [ticket, stock, product] = vectors.custom;
    expect(hex(dataFrames(BlsyncData.CustomData, setupTicketData(vectors.ticket), 0x50))).toEqual(ticket.frames);
    expect(hex(dataFrames(BlsyncData.CustomData, statusExtensionRequest(), 0x58))).toEqual(stock.frames);
    expect(ticket.writes.at(-1)?.events[0]).toEqual({
      type: 1,
      id: 0x13,
      data: toHex(setupTicketData(vectors.ticket)),
    });
    expect(answerOf(stock.writes[0].answers).id).toBe(BlsyncResult.Error);
    const extension = answerOf(product.writes[0].answers);
    expect(extension.id).toBe(BlsyncResult.Ok);
    expect(decodeStatusExtension(extension.data)).toEqual(JSON.parse(product.extension as string));
    expect(decodeFrame(fromHex(product.writes[0].answers[0])).fragmented).toBe(true);
  });
});
