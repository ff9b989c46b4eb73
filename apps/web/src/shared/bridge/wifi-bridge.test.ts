import { DEV_BRIDGE_PATHS } from "@aquapilot/contract";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { installSimulatedBridge } from "./index.ts";
import {
  discoverDevices,
  getCurrentWifi,
  getWifiNetworks,
  hasNativeWifi,
  joinAccessPoint,
  leaveAccessPoint,
  sendJoinPacket,
} from "./native-wifi.ts";
import { createDevWifiBridge, type FetchLike, resolveWifiBridge } from "./wifi-bridge.ts";

const HOME = { connected: true, ssid: "AquaHome", band: "2.4GHz", ip: "192.168.1.23" };
const NETWORKS = { networks: [{ ssid: "AquaHome", band: "2.4GHz", secured: true, rssi: -48 }] };

beforeEach(() => {
  vi.spyOn(console, "info").mockImplementation(() => {});
  vi.spyOn(console, "warn").mockImplementation(() => {});
});

afterEach(() => {
  delete window.AquaPilotNative;
  vi.restoreAllMocks();
});

describe("native bridge Wi-Fi operations (docs/device-protocol.md §13.6)", () => {
  it("answer null without a bridge, and log instead of throwing", async () => {
    expect(hasNativeWifi()).toBe(false);
    expect(await getCurrentWifi()).toBeNull();
    expect(await getWifiNetworks()).toBeNull();
    expect(await joinAccessPoint("WiFi-BL3372")).toBeNull();
    expect(await leaveAccessPoint()).toBeNull();
    expect(await sendJoinPacket("AAAA")).toBeNull();
    expect(await discoverDevices("AAAA", 1000)).toBeNull();
    expect(console.info).toHaveBeenCalledTimes(6);
  });

  it("read object answers, JSON text answers and Promises, passing the arguments through", async () => {
    const calls: unknown[][] = [];
    installSimulatedBridge({
      getCurrentWifi: () => HOME as never,
      getWifiNetworks: async () => JSON.stringify(NETWORKS),
      joinAccessPoint: (ssid) => {
        calls.push(["join", ssid]);
        return JSON.stringify({ ok: true, error: null });
      },
      leaveAccessPoint: async () => HOME as never,
      sendJoinPacket: (packet) => {
        calls.push(["send", packet]);
        return { acknowledged: true };
      },
      discoverDevices: async (packet, timeoutMs) => {
        calls.push(["discover", packet, timeoutMs]);
        return JSON.stringify({ answers: [{ address: "192.168.1.57", packet: "AAAA" }] });
      },
    });
    expect(hasNativeWifi()).toBe(true);
    expect(await getCurrentWifi()).toEqual(HOME);
    expect(await getWifiNetworks()).toEqual(NETWORKS);
    expect(await joinAccessPoint("WiFi-BL3372")).toEqual({ ok: true, error: null });
    expect(await leaveAccessPoint()).toEqual(HOME);
    expect(await sendJoinPacket("QUJD")).toEqual({ acknowledged: true });
    expect(await discoverDevices("REVG", 1000)).toEqual({ answers: [{ address: "192.168.1.57", packet: "AAAA" }] });
    expect(calls).toEqual([
      ["join", "WiFi-BL3372"],
      ["send", "QUJD"],
      ["discover", "REVG", 1000],
    ]);
  });

  it("answer null for answers that break the contract, corrupt JSON and throwing methods", async () => {
    installSimulatedBridge({
      getCurrentWifi: () => ({ connected: "yes" }) as never,
      getWifiNetworks: () => "{not json",
      joinAccessPoint: () => ({ ok: true, error: "exploded" }) as never,
      sendJoinPacket: () => {
        throw new Error("udp failed");
      },
      discoverDevices: () => ({ answers: [{ address: "x", packet: "" }] }) as never,
    });
    expect(await getCurrentWifi()).toBeNull();
    expect(await getWifiNetworks()).toBeNull();
    expect(await joinAccessPoint("WiFi-BL3372")).toBeNull();
    expect(await sendJoinPacket("AAAA")).toBeNull();
    expect(await discoverDevices("AAAA", 1000)).toBeNull();
  });
});

/** A fake server for the development bridge: answers per path, records requests. */
function fakeServer(answers: Record<string, { status?: number; body: unknown }>) {
  const requests: Array<{ url: string; method: string; body: unknown }> = [];
  const fetchFn: FetchLike = async (url, init) => {
    requests.push({ url, method: init?.method ?? "GET", body: init?.body ? JSON.parse(String(init.body)) : null });
    const path = url.replace(/^https?:\/\/[^/]+/, "");
    const answer = answers[path];
    if (!answer) return new Response("<!doctype html><html></html>", { status: 200 });
    const text = typeof answer.body === "string" ? answer.body : JSON.stringify(answer.body);
    return new Response(text, { status: answer.status ?? 200 });
  };
  return { fetchFn, requests };
}

describe("development bridge over HTTP", () => {
  it("maps each operation to its /dev/bridge path and validates the answers", async () => {
    const server = fakeServer({
      [DEV_BRIDGE_PATHS.wifi]: { body: HOME },
      [DEV_BRIDGE_PATHS.networks]: { body: NETWORKS },
      [DEV_BRIDGE_PATHS.select]: { body: { ...HOME, ssid: "Neighbour-WiFi", ip: "192.168.0.23" } },
      [DEV_BRIDGE_PATHS.joinAccessPoint]: { body: { ok: false, error: "not-found" } },
      [DEV_BRIDGE_PATHS.leaveAccessPoint]: { body: HOME },
      [DEV_BRIDGE_PATHS.sendJoinPacket]: { body: { acknowledged: true } },
      [DEV_BRIDGE_PATHS.discover]: { body: { answers: [] } },
    });
    const bridge = createDevWifiBridge(server.fetchFn, "http://api.test");
    expect(bridge.kind).toBe("dev");
    expect(await bridge.getCurrentWifi()).toEqual(HOME);
    expect(await bridge.getWifiNetworks()).toEqual(NETWORKS);
    expect((await bridge.switchNetwork("Neighbour-WiFi"))?.ssid).toBe("Neighbour-WiFi");
    expect(await bridge.joinAccessPoint("WiFi-BL3372")).toEqual({ ok: false, error: "not-found" });
    expect(await bridge.leaveAccessPoint()).toEqual(HOME);
    expect(await bridge.sendJoinPacket("QUJD")).toEqual({ acknowledged: true });
    expect(await bridge.discoverDevices("REVG", 1000)).toEqual({ answers: [] });
    expect(server.requests.map((r) => [r.method, r.url.replace("http://api.test", ""), r.body])).toEqual([
      ["GET", DEV_BRIDGE_PATHS.wifi, null],
      ["GET", DEV_BRIDGE_PATHS.networks, null],
      ["POST", DEV_BRIDGE_PATHS.select, { ssid: "Neighbour-WiFi" }],
      ["POST", DEV_BRIDGE_PATHS.joinAccessPoint, { ssid: "WiFi-BL3372" }],
      ["POST", DEV_BRIDGE_PATHS.leaveAccessPoint, {}],
      ["POST", DEV_BRIDGE_PATHS.sendJoinPacket, { packet: "QUJD" }],
      ["POST", DEV_BRIDGE_PATHS.discover, { packet: "REVG", timeoutMs: 1000 }],
    ]);
  });

  it("answers null on an error status, an HTML fallback page or a network failure", async () => {
    const server = fakeServer({ [DEV_BRIDGE_PATHS.networks]: { status: 404, body: { error: "nope" } } });
    const bridge = createDevWifiBridge(server.fetchFn, "");
    expect(await bridge.getWifiNetworks()).toBeNull();
    expect(await bridge.getCurrentWifi()).toBeNull();
    const broken = createDevWifiBridge(async () => {
      throw new TypeError("Failed to fetch");
    }, "");
    expect(await broken.sendJoinPacket("AAAA")).toBeNull();
  });
});

describe("choosing the Wi-Fi bridge", () => {
  it("prefers the native shell, then the development bridge when it answers, else none", async () => {
    installSimulatedBridge({ getCurrentWifi: () => HOME as never });
    const unused = fakeServer({ [DEV_BRIDGE_PATHS.wifi]: { body: HOME } });
    expect((await resolveWifiBridge({ refresh: true, fetchFn: unused.fetchFn })).kind).toBe("native");
    expect(unused.requests).toEqual([]);
    delete window.AquaPilotNative;

    const dev = fakeServer({ [DEV_BRIDGE_PATHS.wifi]: { body: HOME } });
    expect((await resolveWifiBridge({ refresh: true, fetchFn: dev.fetchFn })).kind).toBe("dev");
    // remembered for the page load
    expect((await resolveWifiBridge({ fetchFn: fakeServer({}).fetchFn })).kind).toBe("dev");

    const production = fakeServer({});
    const none = await resolveWifiBridge({ refresh: true, fetchFn: production.fetchFn });
    expect(none.kind).toBe("none");
    expect(await none.joinAccessPoint("WiFi-BL3372")).toBeNull();
    expect(await none.switchNetwork("AquaHome")).toBeNull();
  });

  it("a shell without the Wi-Fi methods falls back to probing", async () => {
    installSimulatedBridge({ getLanguage: () => "en" });
    const server = fakeServer({});
    expect((await resolveWifiBridge({ refresh: true, fetchFn: server.fetchFn })).kind).toBe("none");
    expect(server.requests).toHaveLength(1);
  });
});
