import { describe, expect, it } from "vitest";
import { deepLinkHash } from "./deep-links.ts";

describe("deep links (issue 15)", () => {
  it("maps the app's scheme and its web host to routes", () => {
    expect(deepLinkHash("aquapilot://messages")).toBe("#/MessageDetails");
    expect(deepLinkHash("aquapilot://message/42")).toBe("#/MessageDetails?id=42");
    expect(deepLinkHash("aquapilot://join/Q7x_9")).toBe("#/FamilyList?code=Q7x_9");
    expect(deepLinkHash("aquapilot://device/3a0f")).toBe("#/Device?id=3a0f");
    expect(deepLinkHash("https://app.aquapilot.cn/#/MessageDetails?id=5")).toBe("#/MessageDetails?id=5");
  });

  it("refuses other hosts, routes, schemes and malformed ids", () => {
    expect(deepLinkHash("https://app.aquapilot.cn/#/Setting")).toBeNull();
    expect(deepLinkHash("https://evil.example/#/MessageDetails")).toBeNull();
    expect(deepLinkHash("aquapilot://message/<script>")).toBeNull();
    expect(deepLinkHash("aquapilot://wipe/1")).toBeNull();
    expect(deepLinkHash("javascript:alert(1)")).toBeNull();
    expect(deepLinkHash("not a url")).toBeNull();
  });
});
