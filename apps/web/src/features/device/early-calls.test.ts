import { readFileSync } from "node:fs";
import path from "node:path";
import { TIME_ZONE_HEADER } from "@aquapilot/contract/wire";
import { QueryClient } from "@tanstack/react-query";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { EARLY_ANSWER_MAX_AGE_MS, EARLY_ANSWERS_GLOBAL, takeEarlyAnswer } from "../../first-paint/early-answers.ts";
import { REFRESH_MARGIN_MS } from "../../shared/api/token.ts";
import { loadGrantedPolicies } from "../../shared/auth/session.ts";
import { getDeviceInfoQueryOptions } from "../../shared/device/api/get-device-info.ts";
import { changeLanguage } from "../../shared/i18n/index.ts";
import { setItem } from "../../shared/storage/index.ts";
import { deviceEarlyCalls, prefetchDevice } from "./prefetch.ts";

/** apps/web/src/first-paint/boot.js as the page runs it (inline). */
const BOOT = readFileSync(path.join(import.meta.dirname, "../../first-paint/boot.js"), "utf8");

/** One request on the wire: method, URL (path and query) and headers. */
interface Sent {
  method: string;
  url: string;
  headers: Record<string, string>;
}

/** A server for the Device screen's first calls; records every request that reached the wire. */
function server(): Sent[] {
  const sent: Sent[] = [];
  vi.stubGlobal(
    "fetch",
    vi.fn(async (input: string, init: RequestInit = {}) => {
      const url = new URL(String(input), "http://app.test");
      sent.push({
        method: init.method ?? "GET",
        url: url.pathname + url.search,
        headers: { ...(init.headers as Record<string, string>) },
      });
      const name = url.pathname.split("/").pop() ?? "";
      const result =
        name === "application-configuration"
          ? { auth: { grantedPolicies: { "Device.Control": true } }, currentUser: { userName: "ann" } }
          : name === "query-device-info"
            ? { id: "d1", name: "Softener 1", online: true, station: null, remainingSeconds: null }
            : name === "device-station-maxworktime-cache"
              ? []
              : name === "get-salt-status"
                ? { levelKg: 40, daysLeft: 30, clockDriftSeconds: 0 }
                : name === "units"
                  ? { volumeUnit: "L", hardnessUnit: "mmol" }
                  : { totalCount: 1, items: [{ id: "d1", name: "Softener 1" }] };
      return Response.json({ success: true, result, error: null, __abp: true });
    }),
  );
  return sent;
}

/** Runs boot.js on `hash` with the build's attributes on its tag (the entry's start recorded, not loaded). */
function boot(hash: string): void {
  window.location.hash = hash;
  const tag = document.createElement("script");
  tag.dataset.entry = "/assets/index-1.js";
  tag.dataset.deviceCalls = deviceEarlyCalls().join("|");
  tag.dataset.timeZoneHeader = TIME_ZONE_HEADER;
  tag.dataset.tokenMargin = String(REFRESH_MARGIN_MS);
  document.body.append(tag);
  const append = vi.spyOn(document.head, "appendChild").mockImplementation((node) => node);
  try {
    new Function(BOOT)();
  } finally {
    append.mockRestore();
    tag.remove();
  }
}

const deviceHash = (params: object) => `#/Device?params=${encodeURIComponent(JSON.stringify(params))}`;

/** What the app's start-up asks on the Device screen: its data starter and the permissions (main.tsx). */
async function appStart(client: QueryClient, hash: string): Promise<void> {
  await Promise.all([prefetchDevice(client, hash), loadGrantedPolicies(true)]);
}

function signIn(expiresInMs = 3_600_000, accessToken = "tok") {
  setItem("token", { accessToken, refreshToken: "ref", expiresAt: Date.now() + expiresInMs });
  setItem("loginInfo", { userName: "ann", grantedPolicies: [], token: accessToken });
}

beforeEach(async () => {
  localStorage.clear();
  setItem("lang", "en");
  await changeLanguage("en");
});

afterEach(() => {
  vi.unstubAllGlobals();
  delete (globalThis as Record<string, unknown>)[EARLY_ANSWERS_GLOBAL];
  localStorage.clear();
  window.location.hash = "";
});

describe("the Device screen's first calls sent by the boot script (interactive within 2 s)", () => {
  it("boot.js sends each call once, as the app would; the app's start-up takes every answer and sends nothing", async () => {
    signIn();
    const sent = server();
    const hash = deviceHash({ deviceId: "d 1/ü", familyId: "f1" });
    boot(hash);
    // Sent before any of the app's code ran: the permissions, the live figures, durations, salt, devices, units.
    expect(sent.map((s) => `${s.method} ${s.url.split("?")[0]?.split("/").pop()}`).sort()).toEqual([
      "GET application-configuration",
      "GET device-station-maxworktime-cache",
      "GET get-list-by-family-id",
      "GET get-salt-status",
      "GET units",
      "POST query-device-info",
    ]);
    expect(sent.find((s) => s.url.includes("query-device-info"))?.url).toBe(
      // Form-encoded, as the app's client writes a query (a space as "+").
      "/api/run-lucky/device/app/device-control/query-device-info?deviceId=d+1%2F%C3%BC",
    );
    for (const s of sent) {
      expect(s.headers).toMatchObject({
        Accept: "application/json",
        "Accept-Language": "en",
        Authorization: "Bearer tok",
      });
      expect(s.headers[TIME_ZONE_HEADER]).toBeTruthy();
      // A POST carries its own key, as every creating or commanding call of the app does.
      expect(Boolean(s.headers["Idempotency-Key"])).toBe(s.method === "POST");
    }
    const client = new QueryClient();
    await appStart(client, hash);
    expect(sent.slice(6)).toEqual([]);
    expect(client.getQueryData(getDeviceInfoQueryOptions("d 1/ü").queryKey)).toMatchObject({ name: "Softener 1" });
    expect(await loadGrantedPolicies()).toEqual(["Device.Control"]);
    // Each answer serves once: the next visit's calls go on the wire.
    await client.refetchQueries();
    expect(sent.length).toBeGreaterThan(6);
  });

  it("the app sends its own call when its headers differ: a refreshed token, another language", async () => {
    signIn();
    const sent = server();
    const hash = deviceHash({ deviceId: "d1", familyId: "f1" });
    boot(hash);
    expect(sent).toHaveLength(6);
    // The app's token changed after boot.js read it: every call is sent again, with the app's token.
    signIn(3_600_000, "tok-2");
    await appStart(new QueryClient(), hash);
    expect(sent).toHaveLength(12);
    expect(sent.slice(6).every((s) => s.headers.Authorization === "Bearer tok-2")).toBe(true);

    delete (globalThis as Record<string, unknown>)[EARLY_ANSWERS_GLOBAL];
    sent.length = 0;
    signIn();
    boot(hash);
    await changeLanguage("fr");
    await appStart(new QueryClient(), hash);
    expect(sent).toHaveLength(12);
    expect(sent.slice(6).every((s) => s.headers["Accept-Language"] === "fr")).toBe(true);
  });

  it("boot.js sends nothing without a usable token or device id, inside a shell, or on another screen", () => {
    const sent = server();
    const hash = deviceHash({ deviceId: "d1", familyId: "f1" });
    boot(hash); // signed out
    signIn(REFRESH_MARGIN_MS - 1_000); // about to expire: the app refreshes it first
    boot(hash);
    signIn();
    boot(deviceHash({ familyId: "f1" }));
    boot("#/index/home");
    (window as unknown as { AquaPilotNative?: object }).AquaPilotNative = {};
    try {
      boot(hash);
    } finally {
      delete (window as unknown as { AquaPilotNative?: object }).AquaPilotNative;
    }
    expect(sent).toEqual([]);
    // Without the household only the calls that do not name it leave.
    boot(deviceHash({ deviceId: "d1" }));
    expect(sent.some((s) => s.url.includes("familyId"))).toBe(false);
    expect(sent).toHaveLength(5);
  });
});

describe("takeEarlyAnswer", () => {
  const put = (entries: object[]) => {
    (globalThis as Record<string, unknown>)[EARLY_ANSWERS_GLOBAL] = entries;
  };
  const answer = new Response("{}");
  const early = (over: object = {}) => ({
    method: "GET",
    url: "/api/x?a=1",
    headers: { Accept: "application/json", "Idempotency-Key": "k1" },
    at: 1_000,
    response: Promise.resolve(answer),
    ...over,
  });

  it("answers the same method, URL and headers (names in any case, the key aside) once", async () => {
    put([early()]);
    expect(takeEarlyAnswer("POST", "/api/x?a=1", { accept: "application/json" }, 1_000)).toBeNull();
    expect(takeEarlyAnswer("GET", "/api/x?a=2", { accept: "application/json" }, 1_000)).toBeNull();
    const taken = takeEarlyAnswer("GET", "/api/x?a=1", { accept: "application/json", "Idempotency-Key": "k2" }, 1_500);
    expect(await taken).toBe(answer);
    expect(takeEarlyAnswer("GET", "/api/x?a=1", { accept: "application/json" }, 1_500)).toBeNull();
  });

  it("drops an answer sent with other headers, or longer ago than its age limit", () => {
    put([early()]);
    expect(
      takeEarlyAnswer("GET", "/api/x?a=1", { Accept: "application/json", "Accept-Language": "en" }, 1_000),
    ).toBeNull();
    expect(takeEarlyAnswer("GET", "/api/x?a=1", { Accept: "application/json" }, 1_000)).toBeNull();
    put([early()]);
    expect(
      takeEarlyAnswer("GET", "/api/x?a=1", { Accept: "application/json" }, 1_001 + EARLY_ANSWER_MAX_AGE_MS),
    ).toBeNull();
    expect((globalThis as unknown as Record<string, unknown[]>)[EARLY_ANSWERS_GLOBAL]).toEqual([]);
  });
});
