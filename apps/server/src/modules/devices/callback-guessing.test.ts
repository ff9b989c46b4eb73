import { endpoints } from "@aquapilot/contract";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestApp, type TestApp } from "../../../test/helpers.ts";
import { CALLBACK_SECRET_LIMITS, EXTERNAL_CALLBACK_HEADER, externalCallbackSecret } from "./routes.ts";

/**
 * Guessing the external-callback secret (docs/security.md "Guessing and pumping"): wrong secrets are counted per
 * client address, and an address over the limit is refused whatever it sends, while the integration's own address
 * keeps working. Production limits (RATE_LIMIT_SCALE 1).
 */
describe("the external-callback secret under guessing", () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp({ env: { RATE_LIMIT_SCALE: "1" } });
  });
  afterAll(() => t.close());

  const send = (from: string, secret: string) =>
    t.app.inject({
      method: "POST",
      url: endpoints.sendDeviceConfigChangeMessage.path,
      remoteAddress: from,
      headers: { [EXTERNAL_CALLBACK_HEADER]: secret, "content-type": "application/json", "accept-language": "en" },
      // An unknown device: with the right secret the call reaches validation and the lookup (not 401, not 429).
      payload: { mac: "02FF00000009", settings: { saltAddition: 2 }, ts: "2026-01-02T03:04:05Z" },
    });

  it("refuses an address after its wrong guesses, even with the right secret; another address is not affected", async () => {
    const secret = externalCallbackSecret(t.config);
    const guesser = "203.0.113.7";
    for (let i = 0; i < CALLBACK_SECRET_LIMITS.wrongPerAddress; i++) {
      const res = await send(guesser, `guess-${i}`);
      expect(res.statusCode, `guess ${i}`).toBe(401);
    }
    const over = await send(guesser, "one-more-guess");
    expect(over.statusCode).toBe(429);
    const retryAfter = Number(over.headers["retry-after"]);
    expect(retryAfter).toBeGreaterThan(0);
    expect(retryAfter).toBeLessThanOrEqual(CALLBACK_SECRET_LIMITS.windowMs / 1000);
    expect(over.json()).toMatchObject({ success: false, error: { message: expect.stringMatching(/too many/i) } });
    // The right secret from the guessing address is refused too: the guesser cannot test a candidate any more.
    expect((await send(guesser, secret)).statusCode).toBe(429);

    // The integration's own server, at another address, still gets through with the right secret.
    const integration = "198.51.100.20";
    const ok = await send(integration, secret);
    expect([401, 429]).not.toContain(ok.statusCode);
    expect(ok.statusCode).toBeLessThan(500);
  });

  it("does not count the right secret: an integration calling often is never throttled by it", async () => {
    const secret = externalCallbackSecret(t.config);
    const busy = "198.51.100.30";
    for (let i = 0; i < CALLBACK_SECRET_LIMITS.wrongPerAddress + 5; i++) {
      const res = await send(busy, secret);
      expect([401, 429], `call ${i}`).not.toContain(res.statusCode);
    }
  });
});
