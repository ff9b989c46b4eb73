import { QueryClient } from "@tanstack/react-query";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { fakeFetch } from "../api/testing/fake-fetch.ts";
import { deviceChannel } from "../realtime/index.ts";
import { messageChannel } from "../realtime/message-channel.ts";
import { getItem, setItem } from "../storage/index.ts";
import { logout } from "./logout.ts";

beforeEach(() => localStorage.clear());
afterEach(() => {
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
});

describe("logout (spec §4)", () => {
  it("stops both hubs, then revokes the refresh token, then ends the local session and reloads on Login", async () => {
    const steps: string[] = [];
    vi.spyOn(deviceChannel(), "stop").mockImplementation(async () => void steps.push("hub 1 stopped"));
    vi.spyOn(messageChannel(), "stop").mockImplementation(async () => void steps.push("hub 2 stopped"));
    const calls = fakeFetch(async () => {
      steps.push(`revoked while signed ${getItem("token") ? "in" : "out"}`);
      return new Response(null, { status: 200 });
    });
    setItem("token", { accessToken: "A1", refreshToken: "R1", expiresAt: Date.now() + 3600_000 });
    setItem("loginInfo", { userName: "ana@example.com", grantedPolicies: [], token: "A1" });
    const queryClient = new QueryClient();
    queryClient.setQueryData(["family"], { id: 1 });
    const reload = vi.fn(() => void steps.push(`reloaded on ${window.location.hash}`));

    await logout(queryClient, reload);

    // A hub still running when the revocation ends its connection would ask for a token with the revoked one.
    expect(steps.slice(0, 2).sort()).toEqual(["hub 1 stopped", "hub 2 stopped"]);
    expect(steps[2]).toBe("revoked while signed in");
    expect(steps.at(-1)).toBe("reloaded on #/login");
    expect(Object.fromEntries(new URLSearchParams(calls[0].init.body as string))).toEqual({
      token: "R1",
      token_type_hint: "refresh_token",
    });
    expect(getItem("token")).toBeNull();
    expect(getItem("loginInfo")).toBeNull();
    expect(queryClient.getQueryData(["family"])).toBeUndefined();
  });
});
