import { HubConnectionBuilder } from "@microsoft/signalr";
import { afterAll, afterEach, describe, expect, it, vi } from "vitest";
import { createHubConnection } from "./hub-connection.ts";
import { backoffDelay, ForeverRetryPolicy, RETRY_BASE_MS, RETRY_MAX_MS } from "./retry-policy.ts";

const figures = { samples: 0, min: Number.POSITIVE_INFINITY, max: 0 };
afterAll(() => {
  console.log(
    `retry policy: ${figures.samples} delays sampled, ${figures.min}–${figures.max} ms, never null after 10,000 retries`,
  );
});

afterEach(() => vi.restoreAllMocks());

describe("backoffDelay: exponential with equal jitter, capped, forever", () => {
  it("doubles the ceiling per retry up to 30 s, and waits between half the ceiling and the ceiling", () => {
    const expectedCeilings = [1000, 2000, 4000, 8000, 16_000, 30_000, 30_000, 30_000];
    expectedCeilings.forEach((ceiling, attempt) => {
      expect(
        backoffDelay(attempt, () => 0),
        `attempt ${attempt} low`,
      ).toBe(ceiling / 2);
      expect(
        backoffDelay(attempt, () => 0.999_999),
        `attempt ${attempt} high`,
      ).toBe(ceiling);
      expect(
        backoffDelay(attempt, () => 0.5),
        `attempt ${attempt} middle`,
      ).toBe(ceiling * 0.75);
    });
    expect(backoffDelay(1e6, () => 0.5)).toBe(RETRY_MAX_MS * 0.75);
    expect(backoffDelay(-3, () => 0)).toBe(RETRY_BASE_MS / 2);
  });

  it("spreads clients apart: 2,000 draws of one retry number take many values inside the window", () => {
    for (const attempt of [0, 3, 12]) {
      const ceiling = Math.min(RETRY_MAX_MS, RETRY_BASE_MS * 2 ** attempt);
      const draws = Array.from({ length: 2000 }, () => backoffDelay(attempt));
      figures.samples += draws.length;
      figures.min = Math.min(figures.min, ...draws);
      figures.max = Math.max(figures.max, ...draws);
      expect(Math.min(...draws)).toBeGreaterThanOrEqual(ceiling / 2);
      expect(Math.max(...draws)).toBeLessThanOrEqual(ceiling);
      // A quarter of the window apart at least between the earliest and latest of 2,000 clients.
      expect(Math.max(...draws) - Math.min(...draws)).toBeGreaterThan(ceiling / 4);
      expect(new Set(draws).size).toBeGreaterThan(100);
    }
  });

  it("ForeverRetryPolicy never answers null, whatever the retry count or elapsed time", () => {
    const policy = new ForeverRetryPolicy();
    for (let previousRetryCount = 0; previousRetryCount < 10_000; previousRetryCount++) {
      const delay = policy.nextRetryDelayInMilliseconds({
        previousRetryCount,
        elapsedMilliseconds: previousRetryCount * RETRY_MAX_MS,
        retryReason: new Error("server gone"),
      });
      expect(delay).not.toBeNull();
      expect(delay).toBeGreaterThanOrEqual(RETRY_BASE_MS / 2);
      expect(delay).toBeLessThanOrEqual(RETRY_MAX_MS);
    }
    const fixed = new ForeverRetryPolicy((attempt) => attempt * 10);
    expect(
      fixed.nextRetryDelayInMilliseconds({ previousRetryCount: 7, elapsedMilliseconds: 0, retryReason: new Error() }),
    ).toBe(70);
  });

  it("the app's hub connections use it for withAutomaticReconnect", () => {
    const spy = vi.spyOn(HubConnectionBuilder.prototype, "withAutomaticReconnect");
    createHubConnection("/signalr-hubs/message", () => "token", "http://localhost");
    expect(spy).toHaveBeenCalledTimes(1);
    expect(spy.mock.calls[0][0]).toBeInstanceOf(ForeverRetryPolicy);
  });
});
