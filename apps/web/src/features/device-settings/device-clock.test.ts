import { describe, expect, it } from "vitest";
import { deviceClockNow, deviceClockOffset } from "./device-clock.ts";

const at = (iso: string) => Date.parse(iso);

describe("the device clock on DeviceSetting", () => {
  const facts = { lastReportTime: "2026-05-02T10:00:30.000Z", reportedAt: "2026-05-02T10:00:00.000Z", clockRate: 1 };

  it("carries the reported device time forward from the report's arrival", () => {
    expect(deviceClockNow(facts, at("2026-05-02T10:05:00Z"))).toBe(at("2026-05-02T10:05:30Z"));
    expect(deviceClockOffset(facts, at("2026-05-02T10:05:00Z"))).toBe(30_000);
    expect(
      deviceClockOffset({ ...facts, lastReportTime: "2026-05-02T09:58:00.000Z" }, at("2026-05-02T10:01:00Z")),
    ).toBe(-120_000);
  });
  it("runs at the measured rate, and has no offset from the phone when time-scaled", () => {
    const fast = { ...facts, clockRate: 60 };
    expect(deviceClockNow(fast, at("2026-05-02T10:01:00Z"))).toBe(at("2026-05-02T11:00:30Z"));
    expect(deviceClockOffset(fast, at("2026-05-02T10:01:00Z"))).toBeNull();
  });
  it("reads from a time sync until a newer report arrives", () => {
    const synced = at("2026-05-02T10:02:00Z");
    expect(deviceClockNow(facts, at("2026-05-02T10:03:00Z"), synced)).toBe(at("2026-05-02T10:03:00Z"));
    expect(deviceClockOffset(facts, at("2026-05-02T10:03:00Z"), synced)).toBe(0);
    const newer = { ...facts, reportedAt: "2026-05-02T10:02:30.000Z", lastReportTime: "2026-05-02T10:02:31.000Z" };
    expect(deviceClockNow(newer, at("2026-05-02T10:03:00Z"), synced)).toBe(at("2026-05-02T10:03:01Z"));
  });
  it("is unknown before the first report, and the report itself without an arrival time", () => {
    expect(deviceClockNow({}, at("2026-05-02T10:00:00Z"))).toBeNull();
    expect(deviceClockOffset({ lastReportTime: null }, at("2026-05-02T10:00:00Z"))).toBeNull();
    expect(deviceClockNow({ lastReportTime: facts.lastReportTime }, at("2026-05-02T11:00:00Z"))).toBe(
      at(facts.lastReportTime),
    );
  });
});
