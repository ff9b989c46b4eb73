import { describe, expect, it } from "vitest";
import {
  answerFrames,
  BLSYNC_MAX_FRAME,
  BlsyncAssembler,
  BlsyncCommand,
  BlsyncData,
  BlsyncFrameError,
  BlsyncFrameType,
  BlsyncResult,
  BlsyncVersion,
  commandFrames,
  dataFrames,
  decodeFrame,
  encodeMessage,
} from "./blsync.ts";
import { fromHex, fromUtf8, toHex, utf8 } from "./bytes.ts";

/**
 * Known-good frames from Bouffalo Lab's own code: bl_iot_sdk components/stage/blsync_ble/src/transfer.c,
 * encrypt_layer.c and payload.c compiled unchanged on the host (FreeRTOS and logging stubbed), MTU 20 (the default
 * ATT MTU less 3). `accepted` are request frames the SDK's pro_trans_read took, with the event it raised; `replies`
 * are the frames its __protocol_send wrote back (ack bit, data type, result code as id).
 */
const SDK = {
  ssid: {
    accepted: ["1200000008000d00000000000000000002024171", "12010180090006027561486f6d65"],
    event: { type: BlsyncFrameType.Data, id: BlsyncData.StaWifiSsid, data: "AquaHome" },
    replies: ["1800008000000b0000000000000000000000", "1801008000000b0000000000000000000000"],
  },
  password: {
    accepted: ["120a00000b000d0000000000000000000203736f", "120b01800c000903667477617465723234"],
    event: { type: BlsyncFrameType.Data, id: BlsyncData.StaWifiPassword, data: "softwater24" },
  },
  connect: { accepted: "0014008004000e0000000000000000000300000000", reply: "1814008000000b0000000000000000000000" },
  stateGet: {
    accepted: "0015008004000e0000000000000000000d00000000",
    json: '{"state":4,"ip":"192.168.1.57"}',
    replies: [
      "1a1500001f000d00000000000000000002007b22",
      "1a1601000f000c007374617465223a342c226970",
      "1a1702000f000c00223a223139322e3136382e31",
      "1a180380080005002e3537227d",
    ],
  },
  version: {
    accepted: "0016008004000e0000000000000000000700000000",
    replies: ["1a16000007000d00000000000000000002007631", "1a170180080005002e312e3000"],
  },
  /** A data frame whose inner length byte (5) does not match: the SDK answers −PRO_ERROR as the byte 0xfe. */
  malformed: { frame: "1230008009000d00000000000000000005024171", reply: "1830008000000b00000000000000000000fe" },
};

const hex = (frames: Uint8Array[]) => frames.map(toHex);

describe("blsync frames: the SDK's own bytes (version 0)", () => {
  it("encodes requests exactly as the SDK's parser accepted them", () => {
    expect(hex(dataFrames(BlsyncData.StaWifiSsid, utf8("AquaHome"), 0, BlsyncVersion.Sdk))).toEqual(SDK.ssid.accepted);
    expect(hex(dataFrames(BlsyncData.StaWifiPassword, utf8("softwater24"), 10, BlsyncVersion.Sdk))).toEqual(
      SDK.password.accepted,
    );
    // A version-0 command is 21 bytes: it only goes out with a larger MTU (the SDK exchanges one after connecting).
    const sdkCommand = (id: number, seq: number) => encodeMessage({ type: 0, id, seq, version: BlsyncVersion.Sdk }, 23);
    expect(hex(sdkCommand(BlsyncCommand.ConnectWifi, 20))).toEqual([SDK.connect.accepted]);
    expect(hex(sdkCommand(BlsyncCommand.WifiStateGet, 21))).toEqual([SDK.stateGet.accepted]);
    expect(hex(sdkCommand(BlsyncCommand.GetVersion, 22))).toEqual([SDK.version.accepted]);
  });

  it("a version-0 command takes 21 bytes: more than one 20-byte write, hence the compact version", () => {
    expect(fromHex(SDK.connect.accepted).length).toBe(21);
    expect(() => commandFrames(BlsyncCommand.ConnectWifi, 0, BlsyncVersion.Sdk)).toThrow(RangeError);
    expect(commandFrames(BlsyncCommand.ConnectWifi, 0)[0].length).toBeLessThanOrEqual(BLSYNC_MAX_FRAME);
  });

  it("reassembles the requests into the events the SDK raised", () => {
    for (const c of [SDK.ssid, SDK.password]) {
      const asm = new BlsyncAssembler();
      const [a, b] = c.accepted.map(fromHex);
      expect(asm.push(a)).toBeNull();
      const m = asm.push(b);
      expect(m).toMatchObject({ type: c.event.type, id: c.event.id, ack: false, version: 0, frames: 2 });
      expect(fromUtf8(m?.data ?? new Uint8Array())).toBe(c.event.data);
    }
    const cmd = new BlsyncAssembler().push(fromHex(SDK.stateGet.accepted));
    expect(cmd).toMatchObject({ type: BlsyncFrameType.Command, id: BlsyncCommand.WifiStateGet, seq: 0x15 });
    expect(toHex(cmd?.data ?? new Uint8Array())).toBe("00000000");
  });

  it("writes answers byte for byte as the SDK's __protocol_send", () => {
    expect(hex(answerFrames(0, BlsyncResult.Ok, undefined, BlsyncVersion.Sdk))).toEqual([SDK.ssid.replies[0]]);
    expect(hex(answerFrames(0x14, BlsyncResult.Ok, undefined, BlsyncVersion.Sdk))).toEqual([SDK.connect.reply]);
    expect(hex(answerFrames(0x15, BlsyncResult.Ok, utf8(SDK.stateGet.json), BlsyncVersion.Sdk))).toEqual(
      SDK.stateGet.replies,
    );
    // sizeof("v1.1.0") in C: the string and its NUL.
    expect(hex(answerFrames(0x16, BlsyncResult.Ok, utf8("v1.1.0\0"), BlsyncVersion.Sdk))).toEqual(SDK.version.replies);
    expect(hex(answerFrames(0x30, BlsyncResult.FrameError, undefined, BlsyncVersion.Sdk))).toEqual([
      SDK.malformed.reply,
    ]);
  });

  it("reads the SDK's answers, fragmented ones included", () => {
    const asm = new BlsyncAssembler();
    const frames = SDK.stateGet.replies.map(fromHex);
    for (const f of frames.slice(0, -1)) expect(asm.push(f)).toBeNull();
    const m = asm.push(frames[frames.length - 1]);
    expect(m).toMatchObject({ ack: true, id: BlsyncResult.Ok, seq: 0x15, frames: 4 });
    expect(fromUtf8(m?.data ?? new Uint8Array())).toBe(SDK.stateGet.json);
    expect(decodeFrame(fromHex(SDK.malformed.reply))).toMatchObject({ ack: true, id: 0xfe, end: true });
  });

  it("refuses the frame the SDK refused", () => {
    expect(() => new BlsyncAssembler().push(fromHex(SDK.malformed.frame))).toThrow(BlsyncFrameError);
  });
});

describe("blsync frames: compact version 1 (what the app and the module use)", () => {
  it("fits every command in one frame of at most 20 bytes and reads it back", () => {
    for (const command of Object.values(BlsyncCommand)) {
      const frames = commandFrames(command, 200);
      expect(frames).toHaveLength(1);
      expect(frames[0].length).toBe(12);
      const f = decodeFrame(frames[0]);
      expect(f).toMatchObject({ version: 1, type: 0, id: command, seq: 200, end: true, ack: false, totalLength: 4 });
    }
  });

  it("fragments data of every length 0–300 into frames ≤ 20 bytes and reassembles it", () => {
    for (let n = 0; n <= 300; n++) {
      const data = Uint8Array.from({ length: n }, (_, i) => (i * 7 + n) & 0xff);
      const frames = dataFrames(BlsyncData.StaWifiPassword, data, 250);
      const asm = new BlsyncAssembler();
      let message = null;
      frames.forEach((frame, i) => {
        expect(frame.length).toBeLessThanOrEqual(BLSYNC_MAX_FRAME);
        const f = decodeFrame(frame);
        expect(f.index).toBe(i);
        expect(f.seq).toBe((250 + i) & 0xff);
        expect(f.last).toBe(i === frames.length - 1);
        expect(f.fragmented).toBe(frames.length > 1);
        message = asm.push(frame);
        if (i < frames.length - 1) expect(message).toBeNull();
      });
      expect(message).toMatchObject({ id: BlsyncData.StaWifiPassword, seq: 250, frames: frames.length });
      expect(toHex((message as unknown as { data: Uint8Array }).data)).toBe(toHex(data));
    }
  });

  it("uses 11 data bytes in the first frame and 13 in each further one", () => {
    const frames = dataFrames(BlsyncData.StaWifiSsid, new Uint8Array(11 + 13 + 1), 0);
    expect(frames.map((f) => decodeFrame(f).data.length)).toEqual([11, 13, 1]);
  });

  it("marks answers with the ack bit and the result code as id", () => {
    const [frame] = answerFrames(9, BlsyncResult.NotReady, utf8("x"));
    expect(decodeFrame(frame)).toMatchObject({ ack: true, id: 1, seq: 9, type: BlsyncFrameType.Data });
    expect(decodeFrame(encodeMessage({ type: 1, id: 2, seq: 3, retry: true })[0]).retry).toBe(true);
  });

  it("refuses a fragment out of order, a message of another id, a short or long total, and bad layouts", () => {
    const frames = dataFrames(BlsyncData.StaWifiSsid, new Uint8Array(40), 0);
    const asm = new BlsyncAssembler();
    asm.push(frames[0]);
    expect(() => asm.push(frames[2])).toThrow(/out of order/);
    expect(() => asm.push(frames[1])).toThrow(/out of order/); // the partial message was discarded
    asm.push(frames[0]);
    const other = dataFrames(BlsyncData.StaWifiPassword, new Uint8Array(40), 1);
    expect(() => asm.push(other[1])).toThrow(/another message/);
    // A first fragment that announces more than the message delivers.
    const lying = Uint8Array.from(frames[frames.length - 1]);
    const single = dataFrames(BlsyncData.StaWifiSsid, new Uint8Array(5), 0)[0];
    single[4] = 6;
    expect(() => new BlsyncAssembler().push(single)).toThrow(/ended after 5 of 6/);
    expect(() => new BlsyncAssembler().push(lying)).toThrow(/out of order/);
    expect(() => decodeFrame(new Uint8Array(3))).toThrow(BlsyncFrameError);
    const badVersion = Uint8Array.from(commandFrames(BlsyncCommand.ProvStop, 0)[0]);
    badVersion[0] |= 0x80;
    expect(() => decodeFrame(badVersion)).toThrow(/version/);
    const badLength = Uint8Array.from(commandFrames(BlsyncCommand.ProvStop, 0)[0]);
    badLength[6] = 9;
    expect(() => decodeFrame(badLength)).toThrow(/length byte/);
    expect(() => encodeMessage({ type: 0, id: 1, seq: 0, data: new Uint8Array(5) })).toThrow(RangeError);
  });
});
