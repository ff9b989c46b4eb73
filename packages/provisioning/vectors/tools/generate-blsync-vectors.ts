/**
 * Writes ../blsync-stock.json: what Bouffalo Lab's blsync_ble layers (bl_iot_sdk transfer.c, encrypt_layer.c,
 * payload.c, compiled on the host with blsync-harness.c; ../README.md) did with the frames the app writes, and the
 * frames they answered. Usage: node generate-blsync-vectors.ts <path of the compiled harness>
 *
 * The phone's frames come from our encoder (packages/provisioning/src/blsync.ts); every answer, parsed event,
 * refusal and crash comes from the SDK's code.
 */
import { spawnSync } from "node:child_process";
import { writeFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { BlsyncCommand, BlsyncData, commandFrames, dataFrames, discardFrame } from "../../src/blsync.ts";
import { toHex, utf8 } from "../../src/bytes.ts";
import { setupTicketData, statusExtensionRequest } from "../../src/setup.ts";

const harness = process.argv[2];
if (!harness) throw new Error("usage: node generate-blsync-vectors.ts <harness>");

interface WriteResult {
  ret: number;
  answers: string[];
  events: Array<{ type: number; id: number; data: string }>;
}

/** Runs one fresh module over `lines`; answers one result per write, and whether (and why) it crashed. */
function run(lines: string[]): { writes: WriteResult[]; crash: string | null } {
  const r = spawnSync(harness, [], { input: `${lines.join("\n")}\n`, encoding: "utf8" });
  const writes = r.stdout
    .split("\n")
    .filter((l) => l.startsWith("{"))
    .map((l) => JSON.parse(l) as WriteResult);
  const asan = r.stderr.match(/ERROR: AddressSanitizer: (\S+)/);
  const crash =
    r.status === 0 ? null : asan ? `${asan[1]}${/WRITE/.test(r.stderr) ? " write" : ""}` : `exit ${r.status}`;
  return { writes, crash };
}

const hex = (frames: Uint8Array[]) => frames.map(toHex);
const writes = (frames: string[]) => frames.map((f) => `write ${f}`);

const ssids = ["AquaHome", "Café Corner", "家里的WiFi", "Neighbour-WiFi-Extended-2.4GHz-X", "Wi-Fi café ☕ maison 24"];
const passwords = ["softwater24", "", "mot-de-passe-été", "p".repeat(32) + "Q".repeat(32)];
for (const s of ssids) if (utf8(s).length > 32) throw new Error(`${s} is longer than 32 bytes`);

const data = [
  ...ssids.map((text) => ({ name: `ssid ${JSON.stringify(text)}`, id: BlsyncData.StaWifiSsid, text })),
  ...passwords.map((text) => ({ name: `password ${JSON.stringify(text)}`, id: BlsyncData.StaWifiPassword, text })),
].map(({ name, id, text }, i) => {
  const frames = hex(dataFrames(id, utf8(text), (i * 8) & 0xff));
  const { writes: results, crash } = run(writes(frames));
  return { name, id, text, bytes: utf8(text).length, frames, results, crash };
});

const commands = [20, 23].flatMap((maxFrame) =>
  [BlsyncCommand.GetVersion, BlsyncCommand.ConnectWifi, BlsyncCommand.WifiStateGet, BlsyncCommand.ProvStop].map(
    (id, i) => {
      const frames = hex(commandFrames(id, 0x40 + i * 2, maxFrame));
      const state = "state 3 0.0.0.0 0.0.0.0 0.0.0.0 000000000000 41717561486f6d65";
      const { writes: results, crash } = run([state, ...writes(frames)]);
      return { name: `command ${id} in frames of ${maxFrame}`, id, maxFrame, frames, results, crash };
    },
  ),
);

const states = [
  { state: 3, ip: "0.0.0.0", gw: "0.0.0.0", mask: "0.0.0.0", bssid: "000000000000", ssid: "" },
  { state: 3, ip: "0.0.0.0", gw: "0.0.0.0", mask: "0.0.0.0", bssid: "000000000000", ssid: "AquaHome" },
  { state: 4, ip: "192.168.1.57", gw: "192.168.1.1", mask: "255.255.255.0", bssid: "02aabbccdd01", ssid: "AquaHome" },
  { state: 4, ip: "10.0.0.57", gw: "10.0.0.1", mask: "255.255.255.0", bssid: "02aabbccdd03", ssid: "Café Corner" },
  {
    state: 4,
    ip: "192.168.100.157",
    gw: "192.168.100.254",
    mask: "255.255.255.0",
    bssid: "02aabbccdd04",
    ssid: "Neighbour-WiFi-Extended-2.4GHz-X",
  },
];
const stateAnswers = [20, 64, 244].flatMap((mtu) =>
  states.map((s) => {
    const request = hex(commandFrames(BlsyncCommand.WifiStateGet, 7, 23));
    const line = `state ${s.state} ${s.ip} ${s.gw} ${s.mask} ${s.bssid} ${toHex(utf8(s.ssid)) || "00"}`;
    const { writes: results } = run([`mtu ${mtu}`, line, ...writes(request)]);
    const bssid = (s.bssid.toUpperCase().match(/../g) as string[]).join(":");
    return { mtu, state: { ...s, bssid }, request, answers: results[0].answers };
  }),
);

const answerLimit = [254, 255, 256, 257].map((length) => {
  const request = hex(commandFrames(BlsyncCommand.WifiDataGet, 9, 23));
  const { writes: results } = run(["mtu 244", `answerlen ${length}`, ...writes(request)]);
  return { length, request, answers: results[0].answers };
});

const ssidFrames = hex(dataFrames(BlsyncData.StaWifiSsid, utf8("AquaHome"), 1));
const retryBit = (frame: string) =>
  toHex(new Uint8Array([Number.parseInt(frame.slice(0, 2), 16) | 1])) + frame.slice(2);
const refusedFrames = [
  {
    name: "the compact version-1 frame the app wrote for SSID AquaHome",
    frames: ["5001008008000a080241717561486f6d65"],
  },
  { name: "a data frame whose inner length byte does not match", frames: ["1230008009000d00000000000000000005024171"] },
  { name: "a length byte that does not match the frame", frames: ["1231008008000e00000000000000000002024171"] },
  { name: "the discard frame with nothing held", frames: [toHex(discardFrame(0x20))] },
].map((c) => ({ ...c, ...run(writes(c.frames)) }));

const crashes = [
  { name: "fragment 0, then fragment 0 again with the retry bit", frames: [ssidFrames[0], retryBit(ssidFrames[0])] },
  {
    name: "a whole message, then its last fragment again with the retry bit",
    frames: [...ssidFrames, retryBit(ssidFrames[1])],
  },
  {
    name: "fragment 0, then a new message's fragment 0",
    frames: [ssidFrames[0], ...hex(dataFrames(BlsyncData.StaWifiSsid, utf8("AquaHome"), 3))],
  },
].map((c) => ({ ...c, ...run(writes(c.frames)) }));

const recovery = (() => {
  const frames = [
    ssidFrames[0],
    toHex(discardFrame(2)),
    ...hex(dataFrames(BlsyncData.StaWifiSsid, utf8("AquaHome"), 3)),
  ];
  return { name: "fragment 0, the discard frame, then the whole message anew", frames, ...run(writes(frames)) };
})();

const ticket = "q1w2e3r4t5y6u7i8o9p0-_";
const custom = [
  {
    name: "setup ticket",
    frames: hex(dataFrames(BlsyncData.CustomData, setupTicketData(ticket), 0x50)),
    extension: null,
  },
  {
    name: "status extension, stock handler",
    frames: hex(dataFrames(BlsyncData.CustomData, statusExtensionRequest(), 0x58)),
    extension: null,
  },
  {
    name: "status extension, product handler",
    frames: hex(dataFrames(BlsyncData.CustomData, statusExtensionRequest(), 0x58)),
    extension: '{"state":4,"failure":0,"pairingCode":"02AABBCCDD01:q1w2e3r4t5y6u7i8o9p0-_"}',
  },
].map((c) => ({ ...c, ...run([...(c.extension ? [`extension ${c.extension}`] : []), ...writes(c.frames)]) }));

const out = fileURLToPath(new URL("../blsync-stock.json", import.meta.url));
writeFileSync(
  out,
  `${JSON.stringify(
    {
      note: "Generated by tools/generate-blsync-vectors.ts from bl_iot_sdk's blsync_ble layers; see README.md.",
      ticket,
      data,
      commands,
      stateAnswers,
      answerLimit,
      refused: refusedFrames,
      crashes,
      recovery,
      custom,
    },
    null,
    1,
  )}\n`,
);
console.log(`wrote ${out}`);
