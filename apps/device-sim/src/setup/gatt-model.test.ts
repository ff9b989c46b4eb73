/**
 * The blsync GATT model through real frames (packages/provisioning codecs): every handled command in compact and
 * SDK (version 0) layout, fragmented SSIDs and passwords, multi-frame answers, the read buffer rules,
 * retransmissions, malformed frames and unknown commands (docs/device-protocol.md §13.2).
 */
import fs from "node:fs";
import {
  BLSYNC_READ_UUID,
  BLSYNC_SERVICE_UUID,
  BLSYNC_WRITE_UUID,
  BlsyncAssembler,
  BlsyncCommand,
  BlsyncData,
  BlsyncFrameType,
  type BlsyncMessage,
  BlsyncVersion,
  dataFrames,
  decodeFrame,
  decodeModuleWifiState,
  encodeMessage,
  fromUtf8,
  type TModuleWifiState,
  utf8,
} from "@aquapilot/provisioning";
import { describe, expect, it } from "vitest";
import { AttError, BlsyncGattModel, type BlsyncModule, bluetoothAddressOf } from "./gatt-model.ts";

class FakeModule implements BlsyncModule {
  calls: string[] = [];
  ssid: string | null = null;
  password: string | null = null;
  connectResult = 0;
  state: TModuleWifiState = {
    state: 4,
    ip: "192.168.1.57",
    gw: "192.168.1.1",
    mask: "255.255.255.0",
    ssid: "AquaHome",
    bssid: "A0:B1:C2:D3:E4:01",
    failure: 0,
    pairingCode: "02ABCDEF3F2A:x9GQ4cC2mZ3Fq0cVJ8m1Jg",
  };
  setSsid(ssid: string) {
    this.calls.push("ssid");
    this.ssid = ssid;
    return 0;
  }
  setPassword(password: string) {
    this.calls.push("password");
    this.password = password;
    return 0;
  }
  connectWifi() {
    this.calls.push("connect");
    return this.connectResult;
  }
  disconnectWifi() {
    this.calls.push("disconnect");
    return 0;
  }
  wifiState() {
    this.calls.push("state");
    return this.state;
  }
  stopProvisioning() {
    this.calls.push("stop");
    return 0;
  }
}

/** Reads answer frames until the last one; returns the reassembled answer and every frame read. */
function readAnswer(gatt: BlsyncGattModel): { answer: BlsyncMessage; frames: Uint8Array[] } {
  const assembler = new BlsyncAssembler();
  const frames: Uint8Array[] = [];
  for (let i = 0; i < 100; i++) {
    const r = gatt.read(BLSYNC_READ_UUID);
    expect(r.code).toBe(AttError.Success);
    const frame = r.value as Uint8Array;
    expect(frame.length).toBeLessThanOrEqual(20);
    frames.push(frame);
    const answer = assembler.push(frame);
    if (answer) return { answer, frames };
  }
  throw new Error("no last fragment");
}

/** Writes each frame and reads its answer, as the app does; returns the answers. */
function send(gatt: BlsyncGattModel, frames: Uint8Array[]): BlsyncMessage[] {
  return frames.map((f) => {
    expect(gatt.write(BLSYNC_WRITE_UUID, f).code).toBe(AttError.Success);
    return readAnswer(gatt).answer;
  });
}

/**
 * A command request's frame. In version 0 a command takes 21 bytes (more than the default ATT payload of 20): an app
 * using the SDK layout needs a larger MTU, and the model takes the write as it comes.
 */
function commandFrames(command: number, seq: number, version: BlsyncVersion = BlsyncVersion.Compact): Uint8Array[] {
  return encodeMessage({ type: BlsyncFrameType.Command, id: command, seq, version }, version === 0 ? 21 : 20);
}

function setup() {
  const module = new FakeModule();
  return { module, gatt: new BlsyncGattModel(module) };
}

describe.each([
  ["compact", BlsyncVersion.Compact],
  ["version 0", BlsyncVersion.Sdk],
] as const)("BlsyncGattModel with %s frames", (_name, version) => {
  it("answers GET_VERSION with v1.1.0 and a NUL, in the request's version and seq", () => {
    const { gatt } = setup();
    const [answer] = send(gatt, commandFrames(BlsyncCommand.GetVersion, 42, version));
    expect(answer).toMatchObject({ version, type: BlsyncFrameType.Data, ack: true, id: 0, seq: 42 });
    expect(fromUtf8(answer.data)).toBe("v1.1.0\0");
  });

  it("stores a 32-byte UTF-8 SSID and a 64-byte UTF-8 password sent in fragments, each frame answered OK", () => {
    const { gatt, module } = setup();
    const ssid = "é".repeat(16);
    const password = `${"ß".repeat(20)}${"x".repeat(24)}`;
    expect(utf8(ssid)).toHaveLength(32);
    expect(utf8(password)).toHaveLength(64);
    const ssidFrames = dataFrames(BlsyncData.StaWifiSsid, utf8(ssid), 1, version);
    expect(ssidFrames.length).toBeGreaterThan(2);
    const answers = send(gatt, ssidFrames);
    expect(answers.map((a) => [a.id, a.data.length, a.version])).toEqual(ssidFrames.map(() => [0, 0, version]));
    expect(answers.map((a) => a.seq)).toEqual(ssidFrames.map((f) => decodeFrame(f).seq));
    expect(module.calls).toEqual(["ssid"]);
    expect(module.ssid).toBe(ssid);
    const pwFrames = dataFrames(BlsyncData.StaWifiPassword, utf8(password), 1 + ssidFrames.length, version);
    expect(send(gatt, pwFrames).every((a) => a.id === 0)).toBe(true);
    expect(module.calls).toEqual(["ssid", "password"]);
    expect(module.password).toBe(password);
  });

  it("refuses an SSID over 32 bytes and a password over 64 bytes with result 2", () => {
    const { gatt, module } = setup();
    const long = send(gatt, dataFrames(BlsyncData.StaWifiSsid, utf8("é".repeat(16) + "a"), 7, version));
    expect(long.at(-1)?.id).toBe(2);
    const pw = send(gatt, dataFrames(BlsyncData.StaWifiPassword, utf8("p".repeat(65)), 30, version));
    expect(pw.at(-1)?.id).toBe(2);
    expect(module.calls).toEqual([]);
  });

  it("hands CONNECT, DISCONNECT and PROV_STOP to the module and answers with its result", () => {
    const { gatt, module } = setup();
    module.connectResult = 2;
    expect(send(gatt, commandFrames(BlsyncCommand.ConnectWifi, 3, version))[0].id).toBe(2);
    module.connectResult = 0;
    expect(send(gatt, commandFrames(BlsyncCommand.ConnectWifi, 4, version))[0].id).toBe(0);
    expect(send(gatt, commandFrames(BlsyncCommand.DisconnectWifi, 5, version))[0].id).toBe(0);
    expect(gatt.provisioningStopped).toBe(false);
    expect(send(gatt, commandFrames(BlsyncCommand.ProvStop, 6, version))[0].id).toBe(0);
    expect(gatt.provisioningStopped).toBe(true);
    expect(module.calls).toEqual(["connect", "connect", "disconnect", "stop"]);
  });

  it("answers WIFI_STATE_GET with the module's state as compact JSON over several frames", () => {
    const { gatt, module } = setup();
    expect(gatt.write(BLSYNC_WRITE_UUID, commandFrames(BlsyncCommand.WifiStateGet, 200, version)[0]).code).toBe(0);
    const { answer, frames } = readAnswer(gatt);
    expect(frames.length).toBeGreaterThan(5);
    expect(frames.map((f) => decodeFrame(f).seq)).toEqual(frames.map((_, i) => (200 + i) & 0xff)); // seq wraps
    expect(answer.id).toBe(0);
    expect(decodeModuleWifiState(answer.data)).toEqual(module.state);
    expect(fromUtf8(answer.data)).toBe(JSON.stringify(module.state));
    expect(gatt.read(BLSYNC_READ_UUID).code).toBe(AttError.InvalidPdu); // all read
  });

  it("answers an unknown command and an unknown data id with result 2", () => {
    const { gatt, module } = setup();
    expect(send(gatt, commandFrames(BlsyncCommand.WifiScan, 1, version))[0].id).toBe(2);
    expect(send(gatt, commandFrames(BlsyncCommand.SetOpMode, 2, version))[0].id).toBe(2);
    expect(send(gatt, commandFrames(0x42, 3, version))[0].id).toBe(2);
    expect(send(gatt, dataFrames(BlsyncData.StaWifiBssid, new Uint8Array(6), 4, version)).at(-1)?.id).toBe(2);
    expect(module.calls).toEqual([]);
  });
});

describe("BlsyncGattModel read buffer", () => {
  it("fails a read with nothing prepared with ATT 0x04", () => {
    const { gatt } = setup();
    expect(gatt.read(BLSYNC_READ_UUID)).toEqual({ code: AttError.InvalidPdu });
    send(gatt, commandFrames(BlsyncCommand.GetVersion, 1));
    expect(gatt.hasPendingAnswer).toBe(false);
    expect(gatt.read(BLSYNC_READ_UUID).code).toBe(AttError.InvalidPdu);
  });

  it("replaces an unread answer with the answer to the next write", () => {
    const { gatt, module } = setup();
    gatt.write(BLSYNC_WRITE_UUID, commandFrames(BlsyncCommand.WifiStateGet, 10)[0]);
    gatt.write(BLSYNC_WRITE_UUID, commandFrames(BlsyncCommand.GetVersion, 11)[0]);
    const { answer } = readAnswer(gatt);
    expect(answer.seq).toBe(11);
    expect(fromUtf8(answer.data)).toBe("v1.1.0\0");
    expect(module.calls).toEqual(["state"]);
  });

  it("answers a retransmission (retry bit, same seq) again without acting twice", () => {
    const { gatt, module } = setup();
    const [first] = send(gatt, commandFrames(BlsyncCommand.ConnectWifi, 9));
    const retry = encodeMessage({ type: BlsyncFrameType.Command, id: BlsyncCommand.ConnectWifi, seq: 9, retry: true });
    const [again] = send(gatt, retry);
    expect(again).toEqual(first);
    // the answer was lost: the app retries before reading
    gatt.write(BLSYNC_WRITE_UUID, retry[0]);
    gatt.write(BLSYNC_WRITE_UUID, retry[0]);
    expect(readAnswer(gatt).answer).toEqual(first);
    expect(module.calls).toEqual(["connect"]);
    // a retried SSID fragment is not stored twice
    const frames = dataFrames(BlsyncData.StaWifiSsid, utf8("Neighbour-WiFi-Extended"), 20);
    expect(frames).toHaveLength(2);
    send(gatt, [frames[0]]);
    const retried = frames[0].slice();
    retried[0] |= 1;
    expect(send(gatt, [retried])[0].id).toBe(0);
    expect(send(gatt, [frames[1]])[0].id).toBe(0);
    expect(module.ssid).toBe("Neighbour-WiFi-Extended");
    // the retry bit with another seq is a new request
    send(gatt, encodeMessage({ type: BlsyncFrameType.Command, id: BlsyncCommand.ConnectWifi, seq: 40, retry: true }));
    expect(module.calls).toEqual(["connect", "ssid", "connect"]);
  });

  it("answers a frame it cannot parse with 0xfe, in the frame's version and seq", () => {
    const { gatt, module } = setup();
    const good = commandFrames(BlsyncCommand.ConnectWifi, 77)[0];
    const broken = good.slice(0, good.length - 1); // length byte no longer matches
    const [answer] = send(gatt, [broken]);
    expect(answer).toMatchObject({ id: 0xfe, seq: 77, version: BlsyncVersion.Compact });
    expect(send(gatt, [new Uint8Array([0x00, 5])])[0]).toMatchObject({ id: 0xfe, seq: 5, version: BlsyncVersion.Sdk });
    // a fragment out of order
    const frames = dataFrames(BlsyncData.StaWifiSsid, utf8("A long network name here"), 1);
    expect(send(gatt, [frames[1]])[0].id).toBe(0xfe);
    expect(module.calls).toEqual([]);
  });

  it("refuses the wrong direction and unknown characteristics; UUIDs in any case", () => {
    const { gatt } = setup();
    const frame = commandFrames(BlsyncCommand.GetVersion, 1)[0];
    expect(gatt.write(BLSYNC_READ_UUID, frame).code).toBe(AttError.WriteNotPermitted);
    expect(gatt.write(BLSYNC_SERVICE_UUID, frame).code).toBe(AttError.AttributeNotFound);
    expect(gatt.read(BLSYNC_WRITE_UUID).code).toBe(AttError.ReadNotPermitted);
    expect(gatt.read("00002a00-0000-1000-8000-00805f9b34fb").code).toBe(AttError.AttributeNotFound);
    expect(gatt.write(BLSYNC_WRITE_UUID.toUpperCase(), frame).code).toBe(0);
    expect(gatt.read(BLSYNC_READ_UUID.toUpperCase()).code).toBe(0);
  });

  it("forgets a partial message and the prepared answer on reset (a dropped link)", () => {
    const { gatt, module } = setup();
    const frames = dataFrames(BlsyncData.StaWifiSsid, utf8("A long network name here"), 1);
    send(gatt, [frames[0]]);
    gatt.write(BLSYNC_WRITE_UUID, commandFrames(BlsyncCommand.GetVersion, 3)[0]);
    gatt.reset();
    expect(gatt.read(BLSYNC_READ_UUID).code).toBe(AttError.InvalidPdu);
    expect(send(gatt, [frames[1]])[0].id).toBe(0xfe);
    expect(module.calls).toEqual([]);
  });
});

describe("bluetoothAddressOf", () => {
  it("adds 1 to the MAC's last octet", () => {
    expect(bluetoothAddressOf("02abcdef3f2a")).toBe("02:AB:CD:EF:3F:2B");
    expect(bluetoothAddressOf("02:AB:CD:EF:3F:FF")).toBe("02:AB:CD:EF:3F:00");
    expect(() => bluetoothAddressOf("02AB")).toThrow(RangeError);
  });
});

describe("gatt-model.ts", () => {
  it("imports nothing but the browser-safe provisioning codecs (a browser test can load it)", () => {
    const source = fs.readFileSync(new URL("./gatt-model.ts", import.meta.url), "utf8");
    const imports = [...source.matchAll(/^import[\s\S]*?from "([^"]+)";/gm)].map((m) => m[1]);
    expect(imports).toEqual(["@aquapilot/provisioning"]);
  });
});
