import fs from "node:fs";
import {
  BLSYNC_READ_UUID,
  BLSYNC_SERVICE_UUID,
  BLSYNC_WRITE_UUID,
  BlsyncAssembler,
  BlsyncCommand,
  BlsyncData,
  type BlsyncMessage,
  commandFrames,
  dataFrames,
  decodeSdkWifiState,
  decodeStatusExtension,
  discardFrame,
  fromHex,
  setupTicketData,
  statusExtensionRequest,
  type TSdkWifiState,
  type TStatusExtension,
  toHex,
  utf8,
} from "@aquapilot/provisioning";
import vectors from "@aquapilot/provisioning/vectors/blsync-stock.json" with { type: "json" };
import { describe, expect, it } from "vitest";
import { AttError, BlsyncGattModel, type BlsyncModule, bluetoothAddressOf } from "./gatt-model.ts";

class FakeModule implements BlsyncModule {
  calls: string[] = [];
  ssid: string | null = null;
  password: string | null = null;
  ticket: string | null = null;
  connectResult = 0;
  crashes: string[] = [];
  extension: TStatusExtension | null = null;
  state: TSdkWifiState = {
    state: 4,
    ip: "192.168.1.57",
    gw: "192.168.1.1",
    mask: "255.255.255.0",
    ssid: "AquaHome",
    bssid: "A0:B1:C2:D3:E4:01",
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
  setupTicket(ticket: string) {
    this.calls.push("ticket");
    this.ticket = ticket;
    return 0;
  }
  statusExtension() {
    this.calls.push("extension");
    return this.extension;
  }
  stopProvisioning() {
    this.calls.push("stop");
    return 0;
  }
  crashed(reason: string) {
    this.crashes.push(reason);
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
    expect(frame.length).toBeLessThanOrEqual(gatt.mtu);
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

describe("BlsyncGattModel against the SDK's vectors (packages/provisioning/vectors)", () => {
  it("serves the SDK's 16-bit UUIDs", () => {
    expect(BLSYNC_SERVICE_UUID).toBe("0000ffff-0000-1000-8000-00805f9b34fb");
    expect([BLSYNC_WRITE_UUID, BLSYNC_READ_UUID].map((u) => u.slice(4, 8))).toEqual(["ff01", "ff02"]);
  });

  it("takes every SSID and password frame as the SDK did and answers the SDK's bytes", () => {
    for (const d of vectors.data) {
      const module = new FakeModule();
      const gatt = new BlsyncGattModel(module);
      d.frames.forEach((f, i) => {
        expect(gatt.write(BLSYNC_WRITE_UUID, fromHex(f)).code).toBe(0);
        expect(toHex(readAnswer(gatt).frames[0]), d.name).toBe(d.results[i].answers[0]);
      });
      expect(d.id === BlsyncData.StaWifiSsid ? module.ssid : module.password).toBe(d.text);
    }
  });

  it("answers commands (both frame forms) and the Wi-Fi state with the SDK's bytes", () => {
    for (const c of vectors.commands.filter((x) => x.id !== BlsyncCommand.WifiStateGet)) {
      const gatt = new BlsyncGattModel(new FakeModule());
      c.frames.forEach((f, i) => {
        gatt.write(BLSYNC_WRITE_UUID, fromHex(f));
        expect(readAnswer(gatt).frames.map(toHex), c.name).toEqual(c.results[i].answers);
      });
    }
    for (const a of vectors.stateAnswers) {
      const module = new FakeModule();
      module.state = a.state;
      const gatt = new BlsyncGattModel(module, a.mtu);
      gatt.write(BLSYNC_WRITE_UUID, fromHex(a.request[0]));
      const { answer, frames } = readAnswer(gatt);
      expect(frames.map(toHex)).toEqual(a.answers);
      expect(decodeSdkWifiState(answer.data)).toEqual(a.state);
    }
  });

  it("answers 0xfe to what the SDK refused, the app's old compact frame included", () => {
    for (const c of vectors.refused) {
      const module = new FakeModule();
      const gatt = new BlsyncGattModel(module);
      gatt.write(BLSYNC_WRITE_UUID, fromHex(c.frames[0]));
      expect(readAnswer(gatt).frames.map(toHex), c.name).toEqual(c.writes[0].answers);
      expect(module.calls).toEqual([]);
    }
  });

  it("crashes where the SDK crashed: the module restarts and the write says so", () => {
    for (const c of vectors.crashes) {
      const module = new FakeModule();
      const gatt = new BlsyncGattModel(module);
      const results = c.frames.slice(0, c.writes.length + 1).map((f) => {
        const r = gatt.write(BLSYNC_WRITE_UUID, fromHex(f));
        gatt.read(BLSYNC_READ_UUID);
        return r.crash === true;
      });
      expect(results.indexOf(true), c.name).toBe(c.writes.length);
      expect(module.crashes).toEqual(["null-write"]);
      expect(gatt.read(BLSYNC_READ_UUID).code).toBe(AttError.InvalidPdu);
    }
    const module = new FakeModule();
    const gatt = new BlsyncGattModel(module);
    const r = vectors.recovery;
    expect(send(gatt, r.frames.map(fromHex)).map((a) => a.id)).toEqual([0, 0xfe, 0, 0]);
    expect(module.ssid).toBe("AquaHome");
  });

  it("the product's custom data: the ticket for either firmware, the status extension only from the product", () => {
    const module = new FakeModule();
    const gatt = new BlsyncGattModel(module);
    const [ticket, stock, product] = vectors.custom;
    expect(send(gatt, ticket.frames.map(fromHex)).at(-1)?.id).toBe(0);
    expect(module.ticket).toBe(vectors.ticket);
    expect(send(gatt, stock.frames.map(fromHex))[0].id).toBe(2);
    module.extension = JSON.parse(product.extension as string);
    gatt.write(BLSYNC_WRITE_UUID, fromHex(product.frames[0]));
    const { answer, frames } = readAnswer(gatt);
    expect(frames.map(toHex)).toEqual(product.writes[0].answers);
    expect(decodeStatusExtension(answer.data)).toEqual(module.extension);
    expect(send(gatt, dataFrames(BlsyncData.CustomData, Uint8Array.of(9), 1))[0].id).toBe(2);
    expect(send(gatt, dataFrames(BlsyncData.CustomData, setupTicketData(vectors.ticket), 1)).at(-1)?.id).toBe(0);
    expect(send(gatt, dataFrames(BlsyncData.CustomData, statusExtensionRequest(), 9))[0].id).toBe(0);
  });
});

describe("BlsyncGattModel rules", () => {
  it("stores SSID and password, connects, reports, stops; refuses lengths past the SDK's structs", () => {
    const module = new FakeModule();
    const gatt = new BlsyncGattModel(module);
    expect(send(gatt, dataFrames(BlsyncData.StaWifiSsid, utf8("Café Corner"), 1)).at(-1)?.id).toBe(0);
    expect(send(gatt, dataFrames(BlsyncData.StaWifiPassword, utf8(""), 5)).at(-1)?.id).toBe(0);
    expect([module.ssid, module.password]).toEqual(["Café Corner", ""]);
    expect(send(gatt, dataFrames(BlsyncData.StaWifiSsid, new Uint8Array(0), 7))[0].id).toBe(2);
    expect(send(gatt, dataFrames(BlsyncData.StaWifiSsid, utf8("s".repeat(33)), 8)).at(-1)?.id).toBe(2);
    expect(send(gatt, dataFrames(BlsyncData.StaWifiPassword, utf8("p".repeat(65)), 20)).at(-1)?.id).toBe(2);
    expect(send(gatt, dataFrames(BlsyncData.StaWifiSsid, Uint8Array.of(0xff), 40)).at(-1)?.id).toBe(2);
    expect(send(gatt, dataFrames(BlsyncData.StaWifiBssid, new Uint8Array(6), 41)).at(-1)?.id).toBe(0);
    expect(send(gatt, dataFrames(5 as BlsyncData, new Uint8Array(1), 42)).at(-1)?.id).toBe(2);
    module.connectResult = 2;
    expect(send(gatt, commandFrames(BlsyncCommand.ConnectWifi, 50)).at(-1)?.id).toBe(2);
    expect(send(gatt, commandFrames(BlsyncCommand.DisconnectWifi, 52)).at(-1)?.id).toBe(0);
    expect(send(gatt, commandFrames(BlsyncCommand.WifiScan, 54)).at(-1)?.id).toBe(2);
    expect(gatt.provisioningStopped).toBe(false);
    expect(send(gatt, commandFrames(BlsyncCommand.ProvStop, 56)).at(-1)?.id).toBe(0);
    expect(gatt.provisioningStopped).toBe(true);
    expect(module.calls).toEqual(["ssid", "password", "connect", "disconnect", "stop"]);
  });

  it("a read with nothing prepared fails with 0x04; a new write replaces an unread answer; reset forgets", () => {
    const gatt = new BlsyncGattModel(new FakeModule());
    expect(gatt.read(BLSYNC_READ_UUID)).toEqual({ code: AttError.InvalidPdu });
    gatt.write(BLSYNC_WRITE_UUID, commandFrames(BlsyncCommand.WifiStateGet, 10, 21)[0]);
    expect(gatt.hasPendingAnswer).toBe(true);
    gatt.write(BLSYNC_WRITE_UUID, commandFrames(BlsyncCommand.GetVersion, 11, 21)[0]);
    expect(readAnswer(gatt).answer).toMatchObject({ seq: 11, data: utf8("v1.1.0\0") });
    const frames = dataFrames(BlsyncData.StaWifiSsid, utf8("A long network name here"), 1);
    gatt.write(BLSYNC_WRITE_UUID, frames[0]);
    gatt.reset();
    expect(gatt.hasPendingAnswer).toBe(false);
    expect(send(gatt, [discardFrame(2)])[0].id).toBe(0xfe);
  });

  it("answers no frame that carries the ack bit", () => {
    const gatt = new BlsyncGattModel(new FakeModule());
    const ack = Uint8Array.from(commandFrames(BlsyncCommand.GetVersion, 3, 21)[0]);
    ack[0] |= 0x08;
    expect(gatt.write(BLSYNC_WRITE_UUID, ack)).toEqual({ code: 0 });
    expect(gatt.read(BLSYNC_READ_UUID).code).toBe(AttError.InvalidPdu);
  });

  it("checks the characteristic: no writes to the read one, no reads of the write one, unknown UUIDs", () => {
    const gatt = new BlsyncGattModel(new FakeModule());
    const frame = commandFrames(BlsyncCommand.GetVersion, 1, 21)[0];
    expect(gatt.write(BLSYNC_READ_UUID, frame).code).toBe(AttError.WriteNotPermitted);
    expect(gatt.write(BLSYNC_SERVICE_UUID, frame).code).toBe(AttError.AttributeNotFound);
    expect(gatt.read(BLSYNC_WRITE_UUID).code).toBe(AttError.ReadNotPermitted);
    expect(gatt.read(BLSYNC_SERVICE_UUID).code).toBe(AttError.AttributeNotFound);
    expect(gatt.write(BLSYNC_WRITE_UUID.toUpperCase(), frame).code).toBe(0);
    expect(gatt.read(BLSYNC_READ_UUID.toUpperCase()).code).toBe(0);
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
