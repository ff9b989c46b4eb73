import { HUB_METHODS, type TDomainEvent } from "@aquapilot/contract";
import { QueryClient, QueryClientProvider, QueryObserver } from "@tanstack/react-query";
import { renderHook, waitFor } from "@testing-library/react";
import type { ReactNode } from "react";
import { afterEach, beforeAll, describe, expect, it, vi } from "vitest";
import { queryKeys } from "../api/query-keys.ts";
import { setItem } from "../storage/index.ts";
import { unitPreferencesKey } from "../units/api/keys.ts";
import { DeviceChangeChannel } from "./device-channel.ts";
import {
  applyDomainEvent,
  DomainEventFeed,
  filterOf,
  parseDomainEvent,
  queryKeysFor,
  useDomainEvents,
} from "./domain-events.ts";
import { FakeConnection } from "./fake-connection.ts";
import { loadHubModule } from "./lazy-hub.ts";

beforeAll(() => loadHubModule());
afterEach(() => {
  vi.restoreAllMocks();
  setItem("token", null);
});

const event = (over: Partial<TDomainEvent>): TDomainEvent => ({
  kind: "device",
  familyId: "f1",
  deviceId: "d1",
  userId: null,
  cause: "updateDeviceName",
  ...over,
});

/** The keys, among a cache holding the app's usual queries of two households and two devices, that `e` touches. */
function touched(e: TDomainEvent): string[] {
  const client = new QueryClient();
  const keys: (readonly unknown[])[] = [
    queryKeys.families,
    ["family", "paged"],
    ["family", "detail", "f1"],
    ["family", "detail", "f2"],
    ["family-user", "list", "f1"],
    ["family-user", "list", "f2"],
    ["family-user", "shares"],
    queryKeys.familyDevices("f1"),
    queryKeys.familyDevices("f2"),
    ["family-device", "dashboard", "f1"],
    ["device", "info", "d1"],
    ["device", "get-device-with--data", "d1"],
    ["device", "salt-status", "d1"],
    ["device", "faults", "d1"],
    ["device", "info", "d2"],
    queryKeys.profile,
    unitPreferencesKey,
    queryKeys.pushSwitch,
    ["message", "list", "all", "en"],
    queryKeys.unreadMessageCount,
    ["after-sale", "list", "unhandled"],
    ["after-sale", "devices"],
  ];
  for (const key of keys) client.setQueryData(key, 1);
  const hit = new Set<string>();
  for (const match of queryKeysFor(e)) {
    for (const q of client.getQueryCache().findAll(filterOf(match))) hit.add(JSON.stringify(q.queryKey));
  }
  return [...hit].sort();
}

const json = (keys: (readonly unknown[])[]) => keys.map((k) => JSON.stringify(k)).sort();

describe("queryKeysFor: each kind makes exactly the queries that show it stale", () => {
  it("device: every query of that device, and its household's device list and dashboard", () => {
    expect(touched(event({}))).toEqual(
      json([
        ["device", "info", "d1"],
        ["device", "get-device-with--data", "d1"],
        ["device", "salt-status", "d1"],
        ["device", "faults", "d1"],
        queryKeys.familyDevices("f1"),
        ["family-device", "dashboard", "f1"],
      ]),
    );
  });

  it("family-devices: the household's list, dashboard and detail, the household list and the after-sales choice", () => {
    expect(touched(event({ kind: "family-devices", cause: "bindDevice" }))).toEqual(
      json([
        queryKeys.familyDevices("f1"),
        ["family-device", "dashboard", "f1"],
        ["family", "detail", "f1"],
        queryKeys.families,
        ["after-sale", "devices"],
      ]),
    );
  });

  it("family: every household query", () => {
    expect(touched(event({ kind: "family", deviceId: null, cause: "updateFamilyName" }))).toEqual(
      json([queryKeys.families, ["family", "paged"], ["family", "detail", "f1"], ["family", "detail", "f2"]]),
    );
  });

  it("member: the household's members and detail, and the household list", () => {
    expect(touched(event({ kind: "member", deviceId: null, userId: "u2", cause: "analysisCode" }))).toEqual(
      json([["family-user", "list", "f1"], ["family", "detail", "f1"], queryKeys.families]),
    );
  });

  it("the user's own kinds: settings, messages read, share codes, after-sales", () => {
    const own = { familyId: null, deviceId: null, userId: "u1" };
    expect(touched(event({ ...own, kind: "settings", cause: "setUnitPreferences" }))).toEqual(
      json([queryKeys.profile, unitPreferencesKey, queryKeys.pushSwitch]),
    );
    expect(touched(event({ ...own, kind: "message-read", cause: "setMessageAllRead" }))).toEqual(
      json([["message", "list", "all", "en"], queryKeys.unreadMessageCount]),
    );
    expect(touched(event({ ...own, kind: "share-codes", cause: "revokeShareCode" }))).toEqual(
      json([["family-user", "shares"]]),
    );
    expect(touched(event({ ...own, kind: "after-sale", cause: "createAfterSale" }))).toEqual(
      json([
        ["after-sale", "list", "unhandled"],
        ["after-sale", "devices"],
      ]),
    );
  });
});

describe("domain events on hub 1", () => {
  it("parses the contract's shape (object or JSON text) and refuses anything else", () => {
    const e = event({});
    expect(parseDomainEvent(e)).toEqual(e);
    expect(parseDomainEvent(JSON.stringify(e))).toEqual(e);
    expect(parseDomainEvent({ ...e, kind: "weather" })).toBeNull();
    expect(parseDomainEvent({ ...e, familyId: 7 })).toBeNull();
    expect(parseDomainEvent({ ...e, cause: undefined })).toBeNull();
    expect(parseDomainEvent("{broken")).toBeNull();
  });

  it("a feed attached to a connection hands on DomainEvent and leaves DeviceChangContentTypeMessage alone", () => {
    vi.spyOn(console, "warn").mockImplementation(() => {});
    const feed = new DomainEventFeed();
    const fake = feed.attach(new FakeConnection());
    const got = vi.fn();
    feed.onEvent(got);
    fake.send(HUB_METHODS.domainEvent, event({}));
    fake.send(HUB_METHODS.domainEvent, { kind: "weather" });
    expect(got).toHaveBeenCalledTimes(1);
    expect(got).toHaveBeenCalledWith(event({}));
  });

  it("applyDomainEvent fetches again the shown queries it touches, and only those", async () => {
    const client = new QueryClient({ defaultOptions: { queries: { retry: false } } });
    const fetches: string[] = [];
    const watch = (key: readonly unknown[]) =>
      new QueryObserver(client, {
        queryKey: key,
        queryFn: async () => {
          fetches.push(JSON.stringify(key));
          return fetches.length;
        },
      }).subscribe(() => {});
    const offs = [watch(["device", "info", "d1"]), watch(["device", "info", "d2"]), watch(queryKeys.families)];
    await waitFor(() => expect(fetches).toHaveLength(3));
    fetches.length = 0;
    await applyDomainEvent(client, event({ cause: "changeVacation" }));
    expect(fetches).toEqual([JSON.stringify(["device", "info", "d1"])]);
    for (const off of offs) off();
  });

  it("useDomainEvents: signed in, it starts hub 1, re-reads what was read before it connected, and each event heard refetches what it touches", async () => {
    setItem("token", { accessToken: "t", refreshToken: "r", expiresAt: Date.now() + 3_600_000 });
    const client = new QueryClient({ defaultOptions: { queries: { retry: false } } });
    const feed = new DomainEventFeed();
    const fake = new FakeConnection();
    const channel = new DeviceChangeChannel(() => feed.attach(fake));
    let answers = 0;
    const off = new QueryObserver(client, {
      queryKey: ["family", "detail", "f1"],
      queryFn: async () => ++answers,
    }).subscribe(() => {});
    await waitFor(() => expect(answers).toBe(1));
    const wrapper = ({ children }: { children: ReactNode }) => (
      <QueryClientProvider client={client}>{children}</QueryClientProvider>
    );
    const { unmount } = renderHook(() => useDomainEvents(channel, feed), { wrapper });
    await waitFor(() => expect(channel.started).toBe(true));
    // Connected: the household detail read before it may have missed an event, so it is read again.
    await waitFor(() => expect(answers).toBe(2));
    fake.send(HUB_METHODS.domainEvent, event({ kind: "family", deviceId: null, cause: "updateFamilyName" }));
    await waitFor(() => expect(answers).toBe(3));
    // Another household's device changed: nothing of this one is read.
    fake.send(HUB_METHODS.domainEvent, event({ familyId: "f2", deviceId: "d9" }));
    unmount();
    fake.send(HUB_METHODS.domainEvent, event({ kind: "family", deviceId: null, cause: "updateFamilyName" }));
    await new Promise((r) => setTimeout(r, 50));
    expect(answers).toBe(3);
    off();
    await channel.stop();
  });
});
