import { describe, expect, it } from "vitest";
import { vapidKeyBytes, webPushState, webPushSupported } from "./web-push.ts";

describe("Web Push helpers", () => {
  it("decodes a base64url VAPID key (65-byte uncompressed P-256 point)", () => {
    const key = "BEl62iUYgUivxIkv69yViEuiBIa-Ib9-SkvMeAtA3LFgDzkrxZJjSgSnfckjBJuBkr3qBUYIHBQFLXYp5Nksh8U";
    const bytes = vapidKeyBytes(key);
    expect(bytes).toHaveLength(65);
    expect(bytes[0]).toBe(4);
    expect(vapidKeyBytes("-_8")).toEqual(new Uint8Array([0xfb, 0xff]));
  });

  it("reports unsupported where there is no service worker or Push API (happy-dom)", async () => {
    expect(webPushSupported()).toBe(false);
    expect(await webPushState()).toBe("unsupported");
  });
});
