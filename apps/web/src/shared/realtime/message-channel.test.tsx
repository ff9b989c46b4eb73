import { HUB_METHODS, RealtimeChannelState, type TMessage } from "@aquapilot/contract";
import { QueryClient, QueryClientProvider } from "@tanstack/react-query";
import { act, cleanup, renderHook, waitFor } from "@testing-library/react";
import { unstableSetRender } from "antd-mobile";
import type { ReactNode } from "react";
import { afterEach, beforeAll, beforeEach, describe, expect, it, vi } from "vitest";
import { queryKeys } from "../api/query-keys.ts";
import { clearLoginInfo } from "../auth/session.ts";
import { installSimulatedBridge } from "../bridge/index.ts";
import { emitPushMessageOpened, onPushMessageOpened, parsePushPayload } from "../bridge/push-open.ts";
import { setItem } from "../storage/index.ts";
import { antdRender } from "../ui/antd-render.ts";
import { handleBack, openDialogCount } from "../ui/back-stack.ts";
import { FakeConnection } from "./fake-connection.ts";
import { loadHubModule } from "./lazy-hub.ts";
import { applyReceivedMessage, MessageChannel, useMessageCenter } from "./message-channel.ts";
import { badgeText, unreadAfterRead, unreadAfterReceive, useUnreadMessageCount } from "./unread.ts";

// The hubs' message schemas load with the SignalR client, after the first screen; the fake connections here skip
// that load.
beforeAll(() => loadHubModule());

const message = (over: Partial<TMessage> = {}): TMessage => ({
  id: "m1",
  type: 1,
  title: "Leak detected",
  content: "The valve closed because a leak was detected.",
  isRead: false,
  readTime: null,
  creationTime: "2025-05-01T10:00:00.000Z",
  deviceId: "d1",
  deviceName: "Kitchen softener",
  familyId: "f1",
  event: "leak",
  closeReason: 513,
  ...over,
});

function signIn(policies = ["Message"]) {
  setItem("token", { accessToken: "tok", refreshToken: "ref", expiresAt: Date.now() + 3_600_000 });
  setItem("loginInfo", { userName: "ann", grantedPolicies: policies, token: "tok" });
}

function wrapperFor(client: QueryClient) {
  return ({ children }: { children: ReactNode }) => (
    <QueryClientProvider client={client}>{children}</QueryClientProvider>
  );
}

beforeEach(() => {
  localStorage.clear();
  vi.spyOn(console, "info").mockImplementation(() => {});
});

afterEach(() => {
  cleanup();
  vi.restoreAllMocks();
  vi.unstubAllGlobals();
  vi.useRealTimers();
});

describe("hub 2 messages", () => {
  it("takes the message as an object or JSON text and drops what does not match the contract", async () => {
    vi.spyOn(console, "warn").mockImplementation(() => {});
    const fake = new FakeConnection();
    const channel = new MessageChannel(() => fake);
    const got = vi.fn();
    channel.onMessage(got);
    await channel.start();
    fake.send(HUB_METHODS.receiveMessage, message());
    fake.send(HUB_METHODS.receiveMessage, JSON.stringify(message({ id: "m2" })));
    fake.send(HUB_METHODS.receiveMessage, "{broken");
    fake.send(HUB_METHODS.receiveMessage, { id: "m3", title: "no type" });
    expect(got.mock.calls.map((c) => c[0].id)).toEqual(["m1", "m2"]);
    await channel.stop();
  });
});

describe("unread badge counting", () => {
  it("shows nothing for 0, the number up to 99, then 99+", () => {
    expect(badgeText(0)).toBeNull();
    expect(badgeText(undefined)).toBeNull();
    expect(badgeText(1)).toBe("1");
    expect(badgeText(99)).toBe("99");
    expect(badgeText(100)).toBe("99+");
  });

  it("counts received unread messages up and reads down, never below zero", () => {
    expect(unreadAfterReceive(2, { isRead: false })).toBe(3);
    expect(unreadAfterReceive(2, { isRead: true })).toBe(2);
    expect(unreadAfterReceive(undefined, { isRead: false })).toBeUndefined();
    expect(unreadAfterRead(3, 1)).toBe(2);
    expect(unreadAfterRead(1, 5)).toBe(0);
    expect(unreadAfterRead(undefined, 1)).toBeUndefined();
  });

  it("reads the count from get-user-message-list?isRead=false&maxResultCount=1", async () => {
    signIn();
    const fetchMock = vi.fn(async (_url: string) =>
      Response.json({ success: true, result: { items: [message()], totalCount: 7 }, error: null, __abp: true }),
    );
    vi.stubGlobal("fetch", fetchMock);
    const client = new QueryClient();
    const { result } = renderHook(() => useUnreadMessageCount(), { wrapper: wrapperFor(client) });
    await waitFor(() => expect(result.current.data).toBe(7));
    const url = String(fetchMock.mock.calls[0][0]);
    expect(url).toContain("/api/push-service/app/message/get-user-message-list?");
    expect(url).toContain("isRead=false");
    expect(url).toContain("maxResultCount=1");
  });

  it("does not ask while signed out", async () => {
    const fetchMock = vi.fn();
    vi.stubGlobal("fetch", fetchMock);
    const { result } = renderHook(() => useUnreadMessageCount(), { wrapper: wrapperFor(new QueryClient()) });
    await act(async () => {});
    expect(result.current.fetchStatus).toBe("idle");
    expect(fetchMock).not.toHaveBeenCalled();
  });
});

describe("applyReceivedMessage", () => {
  it("counts the message and reloads messages; a household-removed notice forgets that household and says who did it", async () => {
    // antd-mobile's imperative Dialog renders through the app's React 19 shim (main.tsx).
    unstableSetRender(antdRender);
    const client = new QueryClient();
    const keys = [queryKeys.families, queryKeys.familyDevices("f2"), ["family", "detail", "f1"], ["message", "list"]];
    for (const key of keys) client.setQueryData(key, ["cached"]);
    client.setQueryData(queryKeys.familyDevices("f1"), [{ id: "d1" }]);
    client.setQueryData(["device", "info", "d1"], { name: "Softener" });
    client.setQueryData(["device", "info", "d2"], { name: "Other" });
    client.setQueryData(queryKeys.unreadMessageCount, 2);
    const stale = () => keys.map((key) => client.getQueryState(key)?.isInvalidated ?? false);

    applyReceivedMessage(client, message({ event: "leak" }));
    expect(client.getQueryData(queryKeys.unreadMessageCount)).toBe(3);
    expect(stale()).toEqual([false, false, false, true]);

    applyReceivedMessage(
      client,
      message({
        id: "m2",
        type: 3,
        event: "household-removed",
        deviceId: null,
        familyId: "f1",
        title: "Removed from a household",
        content: "You were removed from Home by Ana.",
      }),
    );
    expect(client.getQueryData(queryKeys.unreadMessageCount)).toBe(4);
    // The household list reloads; everything of the lost household and its devices is gone (it would answer 404).
    expect(stale()[0]).toBe(true);
    expect(client.getQueryData(queryKeys.familyDevices("f1"))).toBeUndefined();
    expect(client.getQueryData(["family", "detail", "f1"])).toBeUndefined();
    expect(client.getQueryData(["device", "info", "d1"])).toBeUndefined();
    expect(client.getQueryData(["device", "info", "d2"])).toEqual({ name: "Other" });
    expect(client.getQueryData(queryKeys.familyDevices("f2"))).toEqual(["cached"]);
    // The notice says who did it, in a dialog that back closes.
    await vi.waitFor(() =>
      expect(document.querySelector('[data-testid="family-notice"]')?.textContent).toBe(
        "You were removed from Home by Ana.",
      ),
    );
    expect(openDialogCount()).toBe(1);
    expect(handleBack(() => {})).toBe("dialog");
    expect(openDialogCount()).toBe(0);
  });
});

describe("useMessageCenter", () => {
  it("runs hub 2 while signed in: badge +1, message queries invalidated, a toast; each connection re-reads what was read before it; sign-out stops", async () => {
    vi.useFakeTimers({ toFake: ["Date"] });
    vi.setSystemTime(1_000_000);
    signIn();
    vi.stubGlobal(
      "fetch",
      vi.fn(async () => Response.json({ success: true, result: null, __abp: true })),
    );
    const fake = new FakeConnection();
    const channel = new MessageChannel(() => fake);
    const client = new QueryClient();
    client.setQueryData(queryKeys.unreadMessageCount, 2);
    const invalidate = vi.spyOn(client, "invalidateQueries").mockResolvedValue();
    const unread = () => client.getQueryCache().find({ queryKey: queryKeys.unreadMessageCount });
    /** The predicate of the last invalidation of the message queries with one. */
    const rereads = () =>
      invalidate.mock.calls
        .map(([filters]) => filters)
        .findLast((f) => f?.predicate !== undefined && f.queryKey === queryKeys.messageAll)?.predicate;
    const notify = vi.fn();
    vi.setSystemTime(1_000_500);
    const { result, unmount } = renderHook(() => useMessageCenter({ channel, notify, open: () => {} }), {
      wrapper: wrapperFor(client),
    });
    await act(async () => {});
    expect(result.current).toBe(RealtimeChannelState.Connected);
    // Connected for the first time: the count read before the connection is read again.
    expect(rereads()?.(unread() as never)).toBe(true);

    act(() => fake.send(HUB_METHODS.receiveMessage, message({ id: "m9" })));
    expect(client.getQueryData(queryKeys.unreadMessageCount)).toBe(3);
    expect(invalidate).toHaveBeenCalledWith({ queryKey: queryKeys.messageAll });
    expect(notify).toHaveBeenCalledWith(expect.objectContaining({ id: "m9" }));

    invalidate.mockClear();
    act(() => fake.reconnecting?.());
    expect(result.current).toBe(RealtimeChannelState.Connecting);
    // Reconnected at once, in the millisecond of the last message: what that message wrote is not read again …
    act(() => fake.reconnected?.());
    expect(rereads()?.(unread() as never)).toBe(false);
    // … reconnected later, it is.
    vi.setSystemTime(1_002_000);
    act(() => fake.reconnected?.());
    expect(rereads()?.(unread() as never)).toBe(true);

    act(() => clearLoginInfo());
    await act(async () => {});
    expect(fake.stopped).toBe(true);
    expect(result.current).toBe(RealtimeChannelState.None);
    unmount();
    vi.useRealTimers();
  });

  it("stays off without the Message permission", async () => {
    signIn(["Device.View"]);
    const start = vi.fn(async () => {});
    const channel = new MessageChannel(() => Object.assign(new FakeConnection(), { start }));
    renderHook(() => useMessageCenter({ channel, notify: () => {}, open: () => {} }), {
      wrapper: wrapperFor(new QueryClient()),
    });
    await act(async () => {});
    expect(start).not.toHaveBeenCalled();
  });

  it("binds the native push registration once signed in (spec §7 jpush)", async () => {
    signIn();
    const remove = installSimulatedBridge({
      getConfig: () => ({ pushRegistrationId: "reg-1", platform: "ios" }) as never,
    });
    const fetchMock = vi.fn(async (_url: string, _init?: RequestInit) =>
      Response.json({ success: true, result: null, __abp: true }),
    );
    vi.stubGlobal("fetch", fetchMock);
    const channel = new MessageChannel(() => new FakeConnection());
    renderHook(() => useMessageCenter({ channel, notify: () => {}, open: () => {} }), {
      wrapper: wrapperFor(new QueryClient()),
    });
    await waitFor(() => expect(fetchMock).toHaveBeenCalled());
    const [url, init] = fetchMock.mock.calls[0];
    expect(url).toMatch(
      /^\/api\/push-service\/app\/jpush\/app-device-binding\?registrationId=reg-1&platform=ios&installationId=[A-Za-z0-9_-]{22}$/,
    );
    // The same installation id on every binding (the proof that this phone's registration is its own).
    const installationId = new URL(url, "http://x").searchParams.get("installationId");
    expect(localStorage.getItem("pushInstallationId")).toBe(JSON.stringify(installationId));
    expect(init?.method).toBe("POST");
    remove();
    await channel.stop();
  });

  it("opens the message list when the native shell reports a tapped push (spec §2)", async () => {
    const open = vi.fn();
    const channel = new MessageChannel(() => new FakeConnection());
    renderHook(() => useMessageCenter({ channel, notify: () => {}, open }), {
      wrapper: wrapperFor(new QueryClient()),
    });
    await act(async () => {});
    expect(window.AquaPilotOpenMessages?.()).toBe(true);
    expect(open).toHaveBeenLastCalledWith(null);
    window.AquaPilotOpenMessages?.('{"messageId":"m42"}');
    expect(open).toHaveBeenLastCalledWith("m42");
  });
});

describe("native push-opened event", () => {
  it("reads ids from text, JSON text and objects", () => {
    expect(parsePushPayload(undefined)).toBeNull();
    expect(parsePushPayload("m1")).toBe("m1");
    expect(parsePushPayload('{"messageId":"m2"}')).toBe("m2");
    expect(parsePushPayload({ id: 7 })).toBe("7");
    expect(parsePushPayload("{bad")).toBeNull();
  });

  it("keeps a tap that came before anyone listened (cold start) for the first listener", () => {
    emitPushMessageOpened("m5");
    const first = vi.fn();
    const off = onPushMessageOpened(first);
    expect(first).toHaveBeenCalledWith("m5");
    off();
  });
});
