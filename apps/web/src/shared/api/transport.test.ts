import { TIME_ZONE_HEADER } from "@aquapilot/contract/wire";
import { afterEach, describe, expect, it, vi } from "vitest";
import { dropNulls, transmit } from "./transport.ts";

/** A fresh copy of transport.ts (its time zone is read once per module). */
async function freshTransport() {
  vi.resetModules();
  return import("./transport.ts");
}

describe("commonHeaders time zone (the owner's local days; no date formatter built for it)", () => {
  afterEach(() => {
    vi.unstubAllGlobals();
    vi.restoreAllMocks();
  });

  it("takes the zone from Temporal.Now when the runtime has it, without touching Intl.DateTimeFormat", async () => {
    vi.stubGlobal("Temporal", { Now: { timeZoneId: () => "Asia/Kolkata" } });
    const intl = vi.spyOn(Intl, "DateTimeFormat");
    const { commonHeaders } = await freshTransport();
    expect(commonHeaders()[TIME_ZONE_HEADER]).toBe("Asia/Kolkata");
    expect(intl).not.toHaveBeenCalled();
  });

  it("falls back to Intl.DateTimeFormat without Temporal, and reads the zone once", async () => {
    vi.stubGlobal("Temporal", undefined);
    const intl = vi
      .spyOn(Intl, "DateTimeFormat")
      .mockImplementation(
        () => ({ resolvedOptions: () => ({ timeZone: "Pacific/Auckland" }) }) as unknown as Intl.DateTimeFormat,
      );
    const { commonHeaders } = await freshTransport();
    expect(commonHeaders()[TIME_ZONE_HEADER]).toBe("Pacific/Auckland");
    expect(commonHeaders()[TIME_ZONE_HEADER]).toBe("Pacific/Auckland");
    expect(intl).toHaveBeenCalledTimes(1);
  });
});

describe("commonHeaders language (spec §7 Accept-Language, start-up's calls beside the texts)", () => {
  it("asks in the language being switched to while its texts load, and in the current one otherwise", async () => {
    const { commonHeaders } = await import("./transport.ts");
    const { changeLanguage, currentLanguage } = await import("../i18n/index.ts");
    await changeLanguage("en");
    expect(commonHeaders()["Accept-Language"]).toBe("en");
    const switching = changeLanguage("fr");
    // The interface still shows English until the French texts are in; the server already answers in French.
    expect(currentLanguage()).toBe("en");
    expect(commonHeaders()["Accept-Language"]).toBe("fr");
    await switching;
    expect(currentLanguage()).toBe("fr");
    expect(commonHeaders()["Accept-Language"]).toBe("fr");
    await changeLanguage("en");
    expect(commonHeaders()["Accept-Language"]).toBe("en");
  });
});

describe("transmit sends each request from a short task of its own", () => {
  afterEach(() => vi.unstubAllGlobals());

  it("yields to the browser's scheduler before the fetch, and sends nothing when aborted meanwhile", async () => {
    const order: string[] = [];
    let resume: () => void = () => {};
    vi.stubGlobal("scheduler", {
      yield: () =>
        new Promise<void>((r) => {
          order.push("yield");
          resume = r;
        }),
    });
    vi.stubGlobal(
      "fetch",
      vi.fn(async () => {
        order.push("fetch");
        return new Response("{}");
      }),
    );
    const sent = transmit("/api/x", { method: "GET", headers: {} });
    await Promise.resolve();
    expect(order).toEqual(["yield"]);
    resume();
    expect((await sent).status).toBe(200);
    expect(order).toEqual(["yield", "fetch"]);

    const controller = new AbortController();
    const aborted = transmit("/api/y", { method: "GET", headers: {}, signal: controller.signal });
    controller.abort();
    resume();
    await expect(aborted).rejects.toMatchObject({ name: "AbortError" });
    expect(order).toEqual(["yield", "fetch", "yield"]);
  });
});

describe("helpers", () => {
  it("dropNulls goes through nested objects and arrays", () => {
    expect(dropNulls({ a: null, b: [1, null, { c: null, d: 2 }] })).toEqual({ b: [1, { d: 2 }] });
  });
});
