import { describe, expect, it } from "vitest";
import { foldClockRate } from "./clock-rate.ts";

const empty = { rate: null, anchorTs: null, anchorAt: null };
const at = (iso: string) => new Date(iso);

describe("device clock rate", () => {
  it("measures a time-scaled clock and calls a real one exactly 1", () => {
    let s = foldClockRate(empty, "2026-01-01T00:00:00.000Z", at("2026-05-01T10:00:00.000Z"));
    expect(s.rate).toBeNull();
    s = foldClockRate(s, "2026-01-01T00:10:00.000Z", at("2026-05-01T10:00:10.000Z")); // 600 s in 10 s
    expect(s.rate).toBe(60);
    const real = foldClockRate(
      { rate: null, anchorTs: "2026-05-01T10:00:00.000Z", anchorAt: "2026-05-01T10:00:00.300Z" },
      "2026-05-01T10:00:10.000Z",
      at("2026-05-01T10:00:10.200Z"),
    );
    expect(real.rate).toBe(1);
  });

  it("keeps the anchor for reports too close together, and the rate across a time sync", () => {
    const s = { rate: 60, anchorTs: "2026-01-01T00:00:00.000Z", anchorAt: "2026-05-01T10:00:00.000Z" };
    expect(foldClockRate(s, "2026-01-01T00:02:00.000Z", at("2026-05-01T10:00:02.000Z"))).toBe(s);
    const synced = foldClockRate(s, "2025-12-31T20:00:00.000Z", at("2026-05-01T10:00:30.000Z"));
    expect(synced).toEqual({ rate: 60, anchorTs: "2025-12-31T20:00:00.000Z", anchorAt: "2026-05-01T10:00:30.000Z" });
    expect(foldClockRate(s, "garbage", at("2026-05-01T10:00:30.000Z"))).toBe(s);
  });
});
