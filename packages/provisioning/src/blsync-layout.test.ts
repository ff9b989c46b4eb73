import { describe, expect, it } from "vitest";
import {
  answerFrames,
  BlsyncAssembler,
  BlsyncCommand,
  BlsyncData,
  BlsyncFrameError,
  BlsyncFrameType,
  BlsyncVersion,
  commandFrames,
  dataFrames,
  decodeFrame,
  encodeMessage,
} from "./blsync.ts";
import { fromHex, toHex } from "./bytes.ts";

/**
 * The frame layout's edges, with frames written by hand from the layout of docs/device-protocol.md §13 and transfer.c
 * (ctrl: bit 0 retry, bit 1 fragmented, bit 2 protected, bit 3 ack, bits 4–5 type, bits 6–7 version; seq; frag_ctrl
 * LE16 with bit 15 last; on fragment 0 the total LE16; one length byte; version 0's encryption header of 9 bytes on
 * fragment 0 and 1 byte after; a command's id and 4-byte argument, data's length byte, id and bytes).
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

describe("blsync compact frames written by hand", () => {
  it("a command: ctrl 0x40 (version 1, type 0), seq, last flag, total 4, length 5, id and argument", () => {
    // ProvStop (0x0c), seq 5, argument 01 02 03 04 (a command argument has up to 4 bytes).
    const frame = "40" + "05" + "0080" + "0400" + "05" + "0c" + "01020304";
    const [encoded] = encodeMessage({
      type: BlsyncFrameType.Command,
      id: BlsyncCommand.ProvStop,
      seq: 5,
      data: Uint8Array.of(1, 2, 3, 4),
    });
    expect(toHex(encoded)).toBe(frame);
    expect(toHex(commandFrames(BlsyncCommand.ProvStop, 0x105)[0])).toBe("40050080040005" + "0c00000000");
    expect(decodeFrame(fromHex(frame))).toEqual({
      version: BlsyncVersion.Compact,
      type: BlsyncFrameType.Command,
      ack: false,
      retry: false,
      fragmented: false,
      protected: false,
      seq: 5,
      index: 0,
      last: true,
      totalLength: 4,
      id: 0x0c,
      data: Uint8Array.of(1, 2, 3, 4),
      end: true,
    });
  });

  it("data in one frame: ctrl 0x50, total, length 2 + n, inner length, id, bytes", () => {
    const frame = "50" + "07" + "0080" + "0400" + "06" + "04" + "02" + "41717561";
    expect(toHex(dataFrames(BlsyncData.StaWifiSsid, fromHex("41717561"), 7)[0])).toBe(frame);
    expect(decodeFrame(fromHex(frame))).toMatchObject({ type: 1, id: 2, totalLength: 4, data: fromHex("41717561") });
  });

  it("an answer carries the ack bit (0x58), a retry the retry bit, a negative result its low byte", () => {
    expect(toHex(answerFrames(3, 0)[0])).toBe("58" + "03" + "0080" + "0000" + "02" + "00" + "00");
    expect(toHex(answerFrames(3, -2)[0])).toBe("58" + "03" + "0080" + "0000" + "02" + "00" + "fe");
    expect(toHex(encodeMessage({ type: 1, id: 2, seq: 0, retry: true })[0])).toBe("51000080000002" + "0002");
  });

  it("reads the protected, retry and ack bits of ctrl", () => {
    const frame = fromHex("5d" + "00" + "0080" + "0000" + "02" + "00" + "02");
    expect(decodeFrame(frame)).toMatchObject({ protected: true, retry: true, ack: true, fragmented: false });
    expect(decodeFrame(fromHex("50000080000002" + "0002"))).toMatchObject({ protected: false, retry: false });
  });

  it("a frame not marked fragmented ends its message even without the last flag", () => {
    expect(decodeFrame(fromHex("50" + "00" + "0000" + "0000" + "02" + "00" + "02")).end).toBe(true);
    expect(decodeFrame(fromHex("52" + "00" + "0000" + "0000" + "02" + "00" + "02")).end).toBe(false);
  });
});

describe("blsync sizes at their limits", () => {
  it("a command fits exactly in its 12 bytes (compact) or 21 (version 0), not one byte less", () => {
    expect(encodeMessage({ type: 0, id: 7, seq: 0 }, 12)[0]).toHaveLength(12);
    expect(() => encodeMessage({ type: 0, id: 7, seq: 0 }, 11)).toThrow("a command needs 12 bytes, more than 11");
    expect(encodeMessage({ type: 0, id: 7, seq: 0, version: BlsyncVersion.Sdk }, 21)[0]).toHaveLength(21);
    expect(() => encodeMessage({ type: 0, id: 1, seq: 0, data: new Uint8Array(5) })).toThrow(
      "a command argument has at most 4 bytes",
    );
  });

  it("data of 65535 bytes is split; one byte more is refused", () => {
    const frames = encodeMessage({ type: 1, id: 0x13, seq: 0, data: new Uint8Array(0xffff).fill(0xaa) }, 255);
    // 246 bytes in the first frame (255 − 7 − 2), 248 in each further one (255 − 5 − 2).
    expect(frames).toHaveLength(1 + Math.ceil((0xffff - 246) / 248));
    expect(toHex(frames[0].subarray(4, 6))).toBe("ffff");
    expect(() => encodeMessage({ type: 1, id: 0x13, seq: 0, data: new Uint8Array(0x10000) }, 255)).toThrow(
      "a message carries at most 65535 bytes",
    );
  });

  it("frames too small for any data refuse data but still carry an empty message", () => {
    // Compact, first fragment: 7 bytes of header and 2 of data header leave nothing in 9 bytes.
    expect(() => encodeMessage({ type: 1, id: 2, seq: 0, data: Uint8Array.of(1) }, 9)).toThrow(
      "frames of 9 bytes carry no data",
    );
    expect(hexOf(encodeMessage({ type: 1, id: 2, seq: 0 }, 9))).toEqual(["50000080000002" + "0002"]);
    expect(hexOf(encodeMessage({ type: 1, id: 2, seq: 0 }, 4))).toEqual(["50000080000002" + "0002"]);
    // 10 bytes: one data byte in the first frame, three in each further one.
    expect(hexOf(encodeMessage({ type: 1, id: 2, seq: 0, data: Uint8Array.of(1, 2, 3, 4) }, 10))).toEqual([
      "52000000040003" + "010201",
      "5201018005" + "03020203" + "04",
    ]);
  });
});

function hexOf(frames: Uint8Array[]): string[] {
  return frames.map(toHex);
}

describe("blsync frames refused, and why", () => {
  it("names the broken rule", () => {
    expect(() => decodeFrame(new Uint8Array(4))).toThrow("blsync frame: shorter than a header");
    // Five bytes make a header, not a frame: a later data fragment without payload.
    expect(reasonOf(() => decodeFrame(fromHex("5000010000")))).toBe("data length byte mismatch");
    expect(reasonOf(() => decodeFrame(fromHex("500000800000")))).toBe("first fragment shorter than its header");
    expect(reasonOf(() => decodeFrame(fromHex("50000080000000")))).toBe("data length byte mismatch");
    expect(reasonOf(() => decodeFrame(fromHex("80000080000000")))).toBe("unsupported version 2");
    expect(reasonOf(() => decodeFrame(fromHex("60000080000000")))).toBe("unknown frame type 2");
    expect(reasonOf(() => decodeFrame(fromHex("50000080000003" + "0002")))).toBe("length byte 3 but 2 follow");
    expect(reasonOf(() => decodeFrame(fromHex("40000080040004" + "0c000000")))).toBe(
      "a command payload must be 5 bytes",
    );
    expect(reasonOf(() => decodeFrame(fromHex("50000080000002" + "0102")))).toBe("data length byte mismatch");
  });

  it("version 0 needs its 9-byte encryption header on fragment 0 and 1 byte after", () => {
    expect(reasonOf(() => decodeFrame(fromHex("10000080000008" + "00".repeat(8))))).toBe(
      "shorter than its encryption header",
    );
    // Exactly the header and nothing of the data layer.
    expect(reasonOf(() => decodeFrame(fromHex("10000080000009" + "00".repeat(9))))).toBe("data length byte mismatch");
    expect(reasonOf(() => decodeFrame(fromHex("1200018000")))).toBe("shorter than its encryption header");
    expect(decodeFrame(fromHex("12000180" + "03" + "00" + "0002"))).toMatchObject({ index: 1, id: 2, last: true });
  });
});

describe("blsync reassembly refuses what does not add up", () => {
  const message = () => dataFrames(BlsyncData.StaWifiSsid, new Uint8Array(30).fill(0x61), 0);

  it("a malformed frame discards the partial message", () => {
    const [a, b] = message();
    const asm = new BlsyncAssembler();
    asm.push(a);
    expect(() => asm.push(new Uint8Array(2))).toThrow(BlsyncFrameError);
    expect(reasonOf(() => asm.push(b))).toBe("fragment 1 out of order");
  });

  it("reset() discards the partial message", () => {
    const [a, b] = message();
    const asm = new BlsyncAssembler();
    asm.push(a);
    asm.reset();
    expect(reasonOf(() => asm.push(b))).toBe("fragment 1 out of order");
  });

  it("a fragment of an answer, or of a command, does not continue a request's data", () => {
    const [a] = message();
    const answer = answerFrames(0, BlsyncData.StaWifiSsid, new Uint8Array(30));
    const asm = new BlsyncAssembler();
    asm.push(a);
    expect(reasonOf(() => asm.push(answer[1]))).toBe("fragment of another message");
    // The refused fragment discarded the partial message: its own fragment 1 no longer continues it.
    expect(reasonOf(() => asm.push(message()[1]))).toBe("fragment 1 out of order");
    asm.push(a);
    // A command-type fragment 1 with the same id (0x02) and a 4-byte argument.
    expect(reasonOf(() => asm.push(fromHex("4001" + "0180" + "05" + "02" + "00000000")))).toBe(
      "fragment of another message",
    );
  });

  /** Fragment 1 of a data message with id 2 carrying the one byte 0x65, marked last. */
  const secondOfId2 = fromHex("52" + "01" + "0180" + "03" + "01" + "02" + "65");

  it("a first fragment carrying more than it announces is refused, and discarded", () => {
    const asm = new BlsyncAssembler();
    // Total 3, but 4 data bytes.
    expect(reasonOf(() => asm.push(fromHex("50000080" + "0300" + "06" + "0402" + "61626364")))).toBe(
      "more than the announced 3 bytes",
    );
    expect(reasonOf(() => asm.push(secondOfId2))).toBe("fragment 1 out of order");
  });

  it("a message ending short of its announced total is refused, and discarded", () => {
    const asm = new BlsyncAssembler();
    // Total 6, 5 data bytes, not fragmented: it ends here.
    expect(reasonOf(() => asm.push(fromHex("50000080" + "0600" + "07" + "0502" + "6162636465")))).toBe(
      "ended after 5 of 6 bytes",
    );
    expect(reasonOf(() => asm.push(secondOfId2))).toBe("fragment 1 out of order");
  });

  it("a whole message leaves nothing behind, and a new fragment 0 starts afresh", () => {
    const asm = new BlsyncAssembler();
    expect(asm.push(fromHex("50000080" + "0100" + "03" + "0102" + "61"))).toMatchObject({ id: 2, frames: 1 });
    expect(reasonOf(() => asm.push(secondOfId2))).toBe("fragment 1 out of order");
    // A message cut off after its first fragment, then another message from its fragment 0.
    asm.push(message()[0]);
    const fresh = asm.push(fromHex("50070080" + "0200" + "04" + "0202" + "7a7a"));
    expect(fresh).toMatchObject({ id: 2, seq: 7, frames: 1, data: fromHex("7a7a") });
  });

  it("a frame error names itself", () => {
    const err = new BlsyncFrameError("shorter than a header");
    expect(err.name).toBe("BlsyncFrameError");
    expect(err.message).toBe("blsync frame: shorter than a header");
    expect(err).toBeInstanceOf(Error);
  });

  it("version 0 leaves the 1-byte encryption header of later fragments zero, whatever the total", () => {
    // 300 bytes: the total (0x012c) is written on fragment 0 only.
    const frames = dataFrames(BlsyncData.CustomData, new Uint8Array(300).fill(0x11), 0, BlsyncVersion.Sdk);
    expect(toHex(frames[0].subarray(4, 6))).toBe("2c01");
    for (const f of frames.slice(1)) expect(toHex(f.subarray(4, 6))).toMatch(/^..00$/);
  });

  it("a reassembled message keeps the retry flag and version of its first frame", () => {
    const frames = encodeMessage({ type: 1, id: 3, seq: 9, retry: true, data: new Uint8Array(20).fill(1) });
    const asm = new BlsyncAssembler();
    expect(asm.push(frames[0])).toBeNull();
    expect(asm.push(frames[1])).toMatchObject({ retry: true, version: 1, seq: 9, frames: 2, ack: false, type: 1 });
  });
});
