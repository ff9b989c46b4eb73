import { describe, expect, it } from "vitest";
import { parseRouteParams } from "../../web/src/shared/navigation/index.ts";
import { deepLinkHash } from "./deep-links.ts";

/** The route and the params the web app reads from a hash (shared/navigation `useRouteParams`). */
function opened(hash: string | null): { path: string; params: object } | null {
  if (hash === null) return null;
  const [path = "", search = ""] = hash.replace(/^#/, "").split("?");
  return { path, params: parseRouteParams(search ? `?${search}` : "") };
}

describe("deep links", () => {
  it("opens the screens with the params they read (spec §2 navigation params)", () => {
    expect(opened(deepLinkHash("aquapilot://messages"))).toEqual({ path: "/MessageDetails", params: {} });
    expect(opened(deepLinkHash("aquapilot://message/42"))).toEqual({ path: "/MessageDetails", params: { id: "42" } });
    expect(opened(deepLinkHash("aquapilot://device/3a0f"))).toEqual({ path: "/Device", params: { deviceId: "3a0f" } });
    expect(opened(deepLinkHash("aquapilot://device/3a0f?familyId=f-1"))).toEqual({
      path: "/Device",
      params: { deviceId: "3a0f", familyId: "f-1" },
    });
    const code = "AQF1.eyJmIjoiMSJ9.c2ln-_x";
    expect(opened(deepLinkHash(`aquapilot://join/${code}`))).toEqual({
      path: "/FamilyList",
      params: { shareCode: code },
    });
    const web = 'https://app.aquapilot.cn/#/MessageDetails?params={"id":"5"}';
    expect(opened(deepLinkHash(web))).toEqual({ path: "/MessageDetails", params: { id: "5" } });
  });

  it("refuses other hosts, routes, schemes and malformed ids and codes", () => {
    expect(deepLinkHash("https://app.aquapilot.cn/#/Setting")).toBeNull();
    expect(deepLinkHash("https://evil.example/#/MessageDetails")).toBeNull();
    expect(deepLinkHash("aquapilot://message/<script>")).toBeNull();
    expect(deepLinkHash("aquapilot://join/a%20b")).toBeNull();
    expect(deepLinkHash(`aquapilot://join/${"x".repeat(1025)}`)).toBeNull();
    expect(deepLinkHash("aquapilot://device/3a0f?familyId=%22%7D")).toBeNull();
    expect(deepLinkHash("aquapilot://message/%E0%A4%A")).toBeNull();
    expect(deepLinkHash("aquapilot://wipe/1")).toBeNull();
    expect(deepLinkHash("javascript:alert(1)")).toBeNull();
    expect(deepLinkHash("not a url")).toBeNull();
  });
});
