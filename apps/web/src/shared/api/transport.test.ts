import { TIME_ZONE_HEADER } from "@aquapilot/contract/wire";
import { afterEach, describe, expect, it, vi } from "vitest";

/** A fresh copy of transport.ts (its time zone is read once per module). */
async function freshTransport() {
  vi.resetModules();
  return import("./transport.js");
}

describe("commonHeaders time zone (issue 10 One clock, issue 12 first screen)", () => {
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
