import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { INTL_WARM_LIMIT_MS, intlWarmed, resetIntlWarm, warmIntlOffThread } from "./intl-warm.ts";

/** A stand-in for the browser's Worker that records what the page asks of it. */
class FakeWorker {
  static made: FakeWorker[] = [];
  onmessage: ((event: MessageEvent) => void) | null = null;
  onerror: ((event: Event) => void) | null = null;
  sent: unknown[] = [];
  terminated = false;
  readonly url: URL | string;
  readonly options?: WorkerOptions;
  constructor(url: URL | string, options?: WorkerOptions) {
    this.url = url;
    this.options = options;
    FakeWorker.made.push(this);
  }
  postMessage(message: unknown) {
    this.sent.push(message);
  }
  terminate() {
    this.terminated = true;
  }
}

describe("warmIntlOffThread (the locale data starts on another thread)", () => {
  beforeEach(() => {
    resetIntlWarm();
    FakeWorker.made = [];
  });
  afterEach(() => {
    vi.unstubAllGlobals();
    vi.useRealTimers();
  });

  it("sends the language to one worker and resolves when it answers", async () => {
    vi.stubGlobal("Worker", FakeWorker);
    let settled = false;
    const warm = warmIntlOffThread("zh-Hans").then(() => {
      settled = true;
    });
    // A second call, and the first screens' wait, share the same start.
    void warmIntlOffThread("en");
    void intlWarmed().then(() => undefined);
    expect(FakeWorker.made).toHaveLength(1);
    const worker = FakeWorker.made[0] as FakeWorker;
    expect(String(worker.url)).toContain("intl-warm.worker");
    expect(worker.options?.type).toBe("module");
    expect(worker.sent).toEqual([{ lang: "zh-Hans" }]);
    await Promise.resolve();
    expect(settled).toBe(false);
    worker.onmessage?.(new MessageEvent("message", { data: "warm" }));
    await warm;
    expect(settled).toBe(true);
    expect(worker.terminated).toBe(true);
  });

  it("stops waiting after the limit when the worker never answers", async () => {
    vi.useFakeTimers();
    vi.stubGlobal("Worker", FakeWorker);
    let settled = false;
    void warmIntlOffThread("fr").then(() => {
      settled = true;
    });
    await vi.advanceTimersByTimeAsync(INTL_WARM_LIMIT_MS - 1);
    expect(settled).toBe(false);
    await vi.advanceTimersByTimeAsync(1);
    expect(settled).toBe(true);
    expect((FakeWorker.made[0] as FakeWorker).terminated).toBe(true);
  });

  it("resolves at once on a worker error, where workers are missing, and when none was started", async () => {
    vi.stubGlobal("Worker", FakeWorker);
    const failing = warmIntlOffThread("ru");
    (FakeWorker.made[0] as FakeWorker).onerror?.(new Event("error"));
    await expect(failing).resolves.toBeUndefined();

    resetIntlWarm();
    vi.stubGlobal("Worker", undefined);
    await expect(warmIntlOffThread("es")).resolves.toBeUndefined();

    resetIntlWarm();
    await expect(intlWarmed()).resolves.toBeUndefined();
  });
});
