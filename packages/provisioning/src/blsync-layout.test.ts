import { describe, expect, it } from "vitest";
import {
  answerFrames,
  BLSYNC_READ_UUID,
  BLSYNC_SERVICE_UUID,
  BLSYNC_WRITE_UUID,
  BlsyncAssembler,
  BlsyncCommand,
  BlsyncData,
  BlsyncFrameError,
  BlsyncFrameType,
  BlsyncReceiver,
  commandFrames,
  dataFrames,
  decodeFrame,
  discardFrame,
  encodeMessage,
} from "./blsync.ts";
import { fromHex, toHex } from "./bytes.ts";

/**
 * The layout's edges with frames written by hand from transfer.c, encrypt_layer.c and payload.c (ctrl: bit 0
 * retry, bit 1 fragmented, bit 3 ack, bits 4–5 type; seq; frag_ctrl LE16 with bit 15 last; on fragment 0 the total
 * LE16; one length byte; the encryption header, 9 bytes on fragment 0 and 1 after; a command's id and 4-byte
 * argument, data's length byte, id and bytes).
 */

/** The reason of the BlsyncFrameError `run` throws. */
function reasonOf(run: () => unknown): string {
  try {
    run();
  } catch (err) {
    if (err instanceof BlsyncFrameError) return err.reason;
    throw err;
  }
  throw new Error("no BlsyncFrameError thrown");
}

const ENC0 = "00" + "00000000" + "00000000";

describe("blsync frames written by hand", () => {
  it("names the SDK's 16-bit UUIDs in the Bluetooth base UUID", () => {
    expect([BLSYNC_SERVICE_UUID, BLSYNC_WRITE_UUID, BLSYNC_READ_UUID]).toEqual([
      "0000ffff-0000-1000-8000-00805f9b34fb",
      "0000ff01-0000-1000-8000-00805f9b34fb",
      "0000ff02-0000-1000-8000-00805f9b34fb",
    ]);
  });

  it("a command with room: ctrl 0, seq, last flag, total 4, length 14, the encryption header, id and argument", () => {
    const frame = `0005008004000e${ENC0}0c01020304`;
    const [encoded] = encodeMessage(
      { type: BlsyncFrameType.Command, id: BlsyncCommand.ProvStop, seq: 5, data: Uint8Array.of(1, 2, 3, 4) },
      21,
    );
    expect(toHex(encoded)).toBe(frame);
    expect(decodeFrame(fromHex(frame))).toEqual({
      type: BlsyncFrameType.Command,
      ack: false,
      retry: false,
      fragmented: false,
      seq: 5,
      index: 0,
      last: true,
      totalLength: 4,
      id: 0x0c,
      data: Uint8Array.of(1, 2, 3, 4),
      end: true,
    });
  });

  it("a command in 20-byte frames: an empty data fragment 0 announcing 4 bytes, then the command as fragment 1", () => {
    expect(commandFrames(BlsyncCommand.ConnectWifi, 0xff).map(toHex)).toEqual([
      `12ff000004000b${ENC0}0000`,
      "0200018006000300000000",
    ]);
    const asm = new BlsyncAssembler();
    const [a, b] = commandFrames(BlsyncCommand.ConnectWifi, 1);
    expect(asm.push(a)).toBeNull();
    expect(() => asm.push(b)).toThrow(/another message/); // answers never mix types: the phone's reader refuses it
    const receiver = new BlsyncReceiver();
    expect(receiver.receive(a)).toEqual({ kind: "fragment", seq: 1, answer: true });
    expect(receiver.receive(b)).toMatchObject({ kind: "message", seq: 2, type: 0, id: 3, data: new Uint8Array(4) });
  });

  it("data: 2 bytes in fragment 0 and 12 in each further one of 20 bytes; all of MTU 64 in one", () => {
    const frames = dataFrames(BlsyncData.StaWifiSsid, new Uint8Array(2 + 12 + 1), 0);
    expect(frames.map((f) => decodeFrame(f).data.length)).toEqual([2, 12, 1]);
    expect(frames.map((f) => f[0])).toEqual([0x12, 0x12, 0x12]);
    expect(frames.map((f) => decodeFrame(f).last)).toEqual([false, false, true]);
    expect(dataFrames(BlsyncData.StaWifiSsid, new Uint8Array(15), 0, 64)).toHaveLength(1);
    expect(toHex(dataFrames(BlsyncData.StaWifiPassword, new Uint8Array(0), 9)[0])).toBe(`1009008000000b${ENC0}0003`);
    expect(() => encodeMessage({ type: 1, id: 2, seq: 0, data: new Uint8Array(256) })).toThrow(RangeError);
    expect(encodeMessage({ type: 1, id: 2, seq: 0, data: new Uint8Array(255) }, 244)).toHaveLength(2);
    expect(() => encodeMessage({ type: 0, id: 1, seq: 0, data: new Uint8Array(5) })).toThrow(RangeError);
    expect(() => encodeMessage({ type: 1, id: 2, seq: 0 }, 17)).toThrow(RangeError);
    expect(() => answerFrames(0, 0, undefined, 17)).toThrow(RangeError);
  });

  it("an answer: ack bit, the result as id, fragmented from the first frame when it does not fit", () => {
    expect(toHex(answerFrames(0x30, 0xfe)[0])).toBe(`1830008000000b${ENC0}00fe`);
    const long = answerFrames(0xff, 0, new Uint8Array(3));
    expect(long.map((f) => [f[0], f[1], toHex(f.subarray(2, 4))])).toEqual([
      [0x1a, 0xff, "0000"],
      [0x1a, 0x00, "0180"],
    ]);
    expect(decodeFrame(long[0])).toMatchObject({ ack: true, fragmented: true, end: false, totalLength: 3 });
  });

  it("the discard frame: a data fragment 1 whose length byte says 5 with nothing after it", () => {
    expect(toHex(discardFrame(0x109))).toBe("120901000200" + "05");
    expect(reasonOf(() => decodeFrame(discardFrame(1)))).toBe("data length byte mismatch");
  });

  it("reads the retry and ack bits of ctrl; a frame not marked fragmented ends its message", () => {
    const f = decodeFrame(fromHex(`1907000000000b${ENC0}0000`));
    expect(f).toMatchObject({ retry: true, ack: true, fragmented: false, last: false, end: true });
  });
});

describe("blsync frames refused, and why", () => {
  it("names the broken rule", () => {
    expect(reasonOf(() => decodeFrame(new Uint8Array(4)))).toBe("shorter than a header");
    expect(reasonOf(() => decodeFrame(fromHex("1000000000")))).toBe("first fragment shorter than its header");
    expect(reasonOf(() => decodeFrame(fromHex(`10000080000000${ENC0}`)))).toMatch(/length byte 0 but 9 follow/);
    expect(reasonOf(() => decodeFrame(fromHex("1000010000")))).toBe("shorter than its encryption header");
    expect(reasonOf(() => decodeFrame(fromHex(`0000008004000d${ENC0}0c010203`)))).toBe(
      "a command payload must be 5 bytes",
    );
    expect(reasonOf(() => decodeFrame(fromHex(`2000008000000b${ENC0}0000`)))).toBe("unknown frame type 2");
    expect(reasonOf(() => decodeFrame(fromHex(`1000008000000a${ENC0}00`)))).toBe("data length byte mismatch");
    expect(new BlsyncFrameError("x")).toMatchObject({ name: "BlsyncFrameError", message: "blsync frame: x" });
  });
});

describe("blsync answers reassembled", () => {
  const frames = answerFrames(0, 0, new Uint8Array(40));
  it("refuses a fragment out of order and discards the partial answer", () => {
    const asm = new BlsyncAssembler();
    asm.push(frames[0]);
    expect(() => asm.push(frames[2])).toThrow(/fragment 2 out of order/);
    expect(() => asm.push(frames[1])).toThrow(/out of order/);
    expect(() => asm.push(fromHex("00"))).toThrow(BlsyncFrameError);
    asm.push(frames[0]);
    asm.reset();
    expect(() => asm.push(frames[1])).toThrow(/out of order/);
  });

  it("refuses a fragment of another answer, more than announced, and an early end", () => {
    const asm = new BlsyncAssembler();
    asm.push(frames[0]);
    expect(() => asm.push(answerFrames(0, 2, new Uint8Array(40))[1])).toThrow(/another message/);
    const short = Uint8Array.from(frames[0]);
    short[4] = 1; // announces 1 byte, carries 2
    expect(() => new BlsyncAssembler().push(short)).toThrow(/more than the announced 1/);
    const early = Uint8Array.from(answerFrames(0, 0, new Uint8Array(2))[0]);
    early[4] = 3;
    expect(() => new BlsyncAssembler().push(early)).toThrow(/ended after 2 of 3/);
  });

  it("a whole answer leaves nothing behind", () => {
    const asm = new BlsyncAssembler();
    let m = null;
    for (const f of frames) m = asm.push(f);
    expect(m).toMatchObject({ frames: frames.length, seq: 0, id: 0, ack: true });
    expect(() => asm.push(frames[1])).toThrow(/out of order/);
  });
});

describe("the module's receiver, step by step as transfer.c", () => {
  it("refuses short frames and bad length bytes without dropping what it holds", () => {
    const r = new BlsyncReceiver();
    const [a, b] = dataFrames(BlsyncData.StaWifiSsid, new Uint8Array(4), 3);
    expect(r.receive(a).kind).toBe("fragment");
    expect(r.receive(new Uint8Array(4))).toEqual({ kind: "refused", seq: 0, answer: true, dropped: false });
    expect(r.receive(fromHex("1000000000"))).toMatchObject({ kind: "refused", dropped: false });
    expect(r.receive(fromHex(`10000080000003${ENC0}0000`))).toMatchObject({ kind: "refused", dropped: false });
    expect(r.receive(fromHex("1209010005"))).toMatchObject({ kind: "refused", dropped: false });
    expect(r.receive(b)).toMatchObject({ kind: "message", data: new Uint8Array(4) });
  });

  it("drops the held message on a bad payload, a bad command length, or a short total", () => {
    const r = new BlsyncReceiver();
    const [a] = dataFrames(BlsyncData.StaWifiSsid, new Uint8Array(4), 3);
    r.receive(a);
    expect(r.receive(discardFrame(4))).toEqual({ kind: "refused", seq: 4, answer: true, dropped: true });
    expect(r.receive(fromHex(`0000008004000d${ENC0}0c010203`))).toMatchObject({ kind: "refused", dropped: true });
    expect(r.receive(fromHex(`1000008005000b${ENC0}0002`).subarray(1))).toMatchObject({ kind: "refused" });
    const short = Uint8Array.from(dataFrames(BlsyncData.StaWifiSsid, new Uint8Array(1), 0)[0]);
    short[4] = 2;
    expect(r.receive(short)).toMatchObject({ kind: "refused", dropped: true });
    expect(r.receive(a).kind).toBe("fragment");
  });

  it("crashes on a copy through NULL or past the buffer; frames with the ack bit get no answer", () => {
    const r = new BlsyncReceiver();
    const [a, b, c] = dataFrames(BlsyncData.StaWifiSsid, new Uint8Array(20), 0);
    expect(r.receive(b)).toEqual({ kind: "crash", seq: 1, reason: "null-write" });
    r.receive(a);
    r.receive(b);
    expect(r.receive(b)).toEqual({ kind: "crash", seq: 1, reason: "overflow" });
    expect(r.receive(c)).toMatchObject({ kind: "crash", reason: "null-write" });
    expect(r.receive(answerFrames(5, 0)[0])).toMatchObject({
      kind: "message",
      answer: false,
      seq: 5,
      data: new Uint8Array(0),
    });
    r.receive(a);
    r.clear();
    expect(r.receive(b).kind).toBe("crash");
  });
});

describe("blsync edges found by mutation testing", () => {
  it("names the limits it refuses, and takes frames of exactly 18 bytes", () => {
    expect(() => encodeMessage({ type: 0, id: 1, seq: 0, data: new Uint8Array(5) })).toThrow(/at most 4 bytes/);
    expect(() => encodeMessage({ type: 1, id: 2, seq: 0, data: new Uint8Array(256) })).toThrow(/at most 255 bytes/);
    expect(() => encodeMessage({ type: 1, id: 2, seq: 0 }, 17)).toThrow("frames of 17 bytes carry nothing");
    expect(() => answerFrames(0, 0, undefined, 17)).toThrow("frames of 17 bytes carry nothing");
    expect(dataFrames(BlsyncData.StaWifiSsid, new Uint8Array(3), 0, 18).map((f) => decodeFrame(f).data.length)).toEqual(
      [0, 3],
    );
    expect(answerFrames(0, 0, new Uint8Array(3), 18).map((f) => decodeFrame(f).data.length)).toEqual([0, 3]);
  });

  it("decodeFrame: a 7-byte fragment 0, a payload of exactly the encryption header, a longer lying payload", () => {
    expect(reasonOf(() => decodeFrame(fromHex("10000080000000")))).toBe("shorter than its encryption header");
    expect(reasonOf(() => decodeFrame(fromHex(`10000080000009${ENC0}`)))).toBe("data length byte mismatch");
    expect(reasonOf(() => decodeFrame(fromHex(`1000008003000c${ENC0}050241`)))).toBe("data length byte mismatch");
  });

  it("the assembler forgets the partial answer after every refusal and after a whole one", () => {
    const long = answerFrames(0, 0, new Uint8Array(40));
    const errors: Array<[string, (asm: BlsyncAssembler) => void]> = [
      ["a frame that does not decode", (asm) => asm.push(fromHex("00"))],
      ["a fragment of another message", (asm) => asm.push(answerFrames(0, 2, new Uint8Array(40))[1])],
    ];
    for (const [name, provoke] of errors) {
      const asm = new BlsyncAssembler();
      asm.push(long[0]);
      expect(() => provoke(asm), name).toThrow(BlsyncFrameError);
      expect(() => asm.push(long[1]), name).toThrow(/out of order/);
    }
    // More than announced, or an early end: the next index would continue a message that is gone.
    const lying = Uint8Array.from(long[1]);
    const asm = new BlsyncAssembler();
    const head = Uint8Array.from(long[0]);
    head[4] = 3; // announces 3 bytes
    asm.push(head);
    expect(() => asm.push(lying)).toThrow(/more than the announced 3/);
    expect(() => asm.push(long[2])).toThrow(/fragment 2 out of order/);
    const short = answerFrames(0, 0, new Uint8Array(3));
    const early = Uint8Array.from(short[0]);
    early[4] = 9;
    const asm2 = new BlsyncAssembler();
    asm2.push(early);
    expect(() => asm2.push(short[1])).toThrow(/ended after 3 of 9/);
    expect(() => asm2.push(long[2])).toThrow(/fragment 2 out of order/);
    const asm3 = new BlsyncAssembler();
    asm3.push(short[0]);
    expect(asm3.push(short[1])).toMatchObject({ frames: 2 });
    expect(() => asm3.push(long[2])).toThrow(/fragment 2 out of order/);
    // A fragment 0 again starts afresh.
    const asm4 = new BlsyncAssembler();
    asm4.push(short[0]);
    asm4.push(short[0]);
    expect(asm4.push(short[1])?.data).toEqual(new Uint8Array(3));
  });

  it("the assembler refuses a continuation of another type or without the ack bit", () => {
    const [data0] = dataFrames(BlsyncData.StaWifiPassword, new Uint8Array(4), 0);
    const asm = new BlsyncAssembler();
    asm.push(data0);
    expect(() => asm.push(commandFrames(BlsyncCommand.ConnectWifi, 0)[1])).toThrow(/another message/);
    const long = answerFrames(0, 0, new Uint8Array(40));
    const noAck = Uint8Array.from(long[1]);
    noAck[0] &= ~0x08;
    const asm2 = new BlsyncAssembler();
    asm2.push(long[0]);
    expect(() => asm2.push(noAck)).toThrow(/another message/);
  });

  it("the receiver: short frames dropped as the SDK drops them, a 6-byte command, an unfragmented end", () => {
    const r = new BlsyncReceiver();
    expect(r.receive(fromHex("1209010000"))).toMatchObject({ kind: "refused", dropped: true });
    expect(r.receive(fromHex("10000080000000"))).toMatchObject({ kind: "refused", dropped: true });
    expect(r.receive(fromHex(`0000008004000f${ENC0}0c0102030405`))).toMatchObject({ kind: "refused", dropped: true });
    expect(r.receive(fromHex(`1005000000000b${ENC0}0003`))).toMatchObject({ kind: "message", id: 3 });
  });

  it("the receiver takes one whole message after another", () => {
    const r = new BlsyncReceiver();
    for (const seq of [0, 10]) {
      const frames = dataFrames(BlsyncData.StaWifiSsid, new Uint8Array(4).fill(seq + 1), seq);
      const got = frames.map((f) => r.receive(f));
      expect(got.map((g) => g.kind)).toEqual(["fragment", "message"]);
      expect(got[1]).toMatchObject({ data: new Uint8Array(4).fill(seq + 1) });
    }
  });
});
