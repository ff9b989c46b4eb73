import { Duplex } from "node:stream";
import mqttPacket from "mqtt-packet";
import { afterAll, describe, expect, it } from "vitest";
import { guardPacketSize, MqttFrameScanner } from "./packet-guard.ts";

const figures = { packets: 0, bytes: 0, refused: 0 };
afterAll(() => {
  console.log(
    `packet guard: ${figures.packets} packets (${figures.bytes.toLocaleString("en")} bytes) scanned, ${figures.refused} refused`,
  );
});

function publish(payloadBytes: number): Buffer {
  return mqttPacket.generate({
    cmd: "publish",
    topic: "aq/v1/devices/02AA00000001/state",
    payload: Buffer.alloc(payloadBytes, 0x61),
    qos: 1,
    messageId: 7,
    retain: false,
    dup: false,
  });
}

/** Feeds `bytes` to a scanner in pieces of `piece` bytes; answers the bytes let through and the refusal. */
function scan(bytes: Buffer, limit: number, piece: number) {
  const scanner = new MqttFrameScanner(limit);
  let passed = 0;
  for (let i = 0; i < bytes.length; i += piece) {
    const chunk = bytes.subarray(i, i + piece);
    const allowed = scanner.feed(chunk);
    passed += allowed;
    if (allowed < chunk.length) break;
  }
  figures.bytes += bytes.length;
  if (scanner.refused !== null) figures.refused++;
  return { passed, refused: scanner.refused };
}

describe("MQTT packet size guard", () => {
  it("lets packets up to the limit through whole, however the bytes are split", () => {
    const stream = Buffer.concat([
      mqttPacket.generate({ cmd: "pingreq" }),
      publish(100),
      publish(16_000),
      mqttPacket.generate({ cmd: "puback", messageId: 3 }),
    ]);
    figures.packets += 4 * 4;
    for (const piece of [1, 2, 7, 1500, stream.length]) {
      expect(scan(stream, 16_384, piece)).toEqual({ passed: stream.length, refused: null });
    }
  });

  it("stops at the first byte of a packet announcing more than the limit, before its body", () => {
    const ok = publish(200);
    const big = publish(16_384); // remaining length = payload + topic + ids > 16 384
    const stream = Buffer.concat([ok, big, publish(10)]);
    figures.packets += 3 * 3;
    for (const piece of [1, 3, stream.length]) {
      const r = scan(stream, 16_384, piece);
      // Split into small pieces, the big packet's fixed header (≤ 5 bytes) may already have passed: never its body.
      expect(r.passed).toBeGreaterThanOrEqual(ok.length);
      expect(r.passed).toBeLessThan(ok.length + 5);
      if (piece === stream.length) expect(r.passed).toBe(ok.length);
      expect(r.refused).toBeGreaterThan(16_384);
    }
    // A 10 MB announcement is refused from its length bytes alone: nothing of it is waited for.
    const header = publish(10_000_000).subarray(0, 8);
    figures.packets++;
    expect(scan(header, 16_384, 8)).toEqual({ passed: 0, refused: expect.any(Number) });
  });

  it("refuses a malformed remaining length (a fifth length byte)", () => {
    const malformed = Buffer.from([0x30, 0xff, 0xff, 0xff, 0xff, 0x01]);
    figures.packets++;
    expect(scan(malformed, 1 << 30, 6)).toEqual({ passed: 0, refused: -1 });
  });
});

describe("the guarded connection's writes", () => {
  /** A socket that records each system write it would make: one entry per write or per corked batch. */
  function fakeSocket(highWaterMark = 16_384) {
    const writes: string[] = [];
    const socket = new Duplex({
      highWaterMark,
      read() {},
      write(chunk: Buffer, _encoding, callback) {
        writes.push(chunk.toString());
        // Completes on the next turn, as a socket's write does once the kernel took it.
        setImmediate(callback);
      },
      writev(chunks, callback) {
        writes.push(chunks.map((c) => String(c.chunk)).join("+"));
        setImmediate(callback);
      },
    });
    return { socket, writes };
  }

  it("sends what the broker writes corked as one write of the socket, as it would without the guard", async () => {
    const { socket, writes } = fakeSocket();
    const guarded = guardPacketSize(socket, 1024, () => {});
    const done: string[] = [];
    guarded.cork();
    guarded.write(Buffer.from("head"), () => done.push("head"));
    guarded.write(Buffer.from("body"), () => done.push("body"));
    guarded.uncork();
    await new Promise((r) => setImmediate(r));
    await new Promise((r) => setImmediate(r));
    expect(writes).toEqual(["head+body"]);
    expect(done).toEqual(["head", "body"]);
  });

  it("follows the socket's backpressure: false when its buffer is full, drain when it empties", async () => {
    const { socket } = fakeSocket(4);
    const guarded = guardPacketSize(socket, 1024, () => {});
    expect(guarded.write(Buffer.from("12345678"))).toBe(false);
    await new Promise<void>((resolve) => guarded.once("drain", () => resolve()));
    expect(guarded.write(Buffer.from("1"))).toBe(true);
  });
});
