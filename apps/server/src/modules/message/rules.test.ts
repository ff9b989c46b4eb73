import { MESSAGE_TYPES, SYSTEM_CLOSE_REASONS, SystemCloseReason } from "@aquapilot/contract";
import { describe, expect, it } from "vitest";
import { CLOSE_REASON_EVENTS, describeDeviceEvent, isWithinOfflineGrace, saltLowNotice } from "./rules.ts";

const event = (type: string, close_reason: number | null = null, progress: number | null = null) => ({
  type,
  close_reason,
  progress,
});

describe("message rules", () => {
  it("makes an alarm of each system close, carrying its reason, and nothing of another close", () => {
    expect(describeDeviceEvent(event("close", SystemCloseReason.LeakPointSignal))).toEqual({
      event: "leak",
      type: MESSAGE_TYPES.deviceAlarm,
      closeReason: 513,
    });
    for (const reason of SYSTEM_CLOSE_REASONS) {
      expect(describeDeviceEvent(event("close", reason))?.event).toBe(CLOSE_REASON_EVENTS[reason]);
    }
    expect(describeDeviceEvent(event("close", 1))).toBeNull();
    expect(describeDeviceEvent(event("close", null))).toBeNull();
  });

  it("makes notices of a finished regeneration and of a firmware update at 100 % or failed", () => {
    const notice = (name: string) => ({ event: name, type: MESSAGE_TYPES.deviceNotice, closeReason: null });
    expect(describeDeviceEvent(event("regeneration-end", 513))).toEqual(notice("regeneration-finished"));
    expect(describeDeviceEvent(event("ota-progress", null, 100))).toEqual(notice("ota-finished"));
    expect(describeDeviceEvent(event("ota-progress", null, 99.9))).toBeNull();
    expect(describeDeviceEvent(event("ota-progress"))).toBeNull();
    expect(describeDeviceEvent(event("ota-failed"))).toEqual(notice("ota-failed"));
    expect(describeDeviceEvent(event("regeneration-start"))).toBeNull();
  });

  it("raises no offline alarm within the configured minutes, and one after them", () => {
    const since = "2026-01-01T10:00:00.000Z";
    expect(isWithinOfflineGrace(since, new Date("2026-01-01T10:30:00.000Z"), 30)).toBe(true);
    expect(isWithinOfflineGrace(since, new Date("2026-01-01T10:30:00.001Z"), 30)).toBe(false);
    expect(isWithinOfflineGrace("not a time", new Date("2026-01-01T10:00:00.000Z"), 30)).toBe(false);
  });

  it("asks for a salt-low notice only when the forecast says low, worded 'empty' below one regeneration", () => {
    const status = { lowSalt: true, saltDaysLeft: 3, saltLevelKg: 5, saltPerRegenerationKg: 0.5 };
    expect(saltLowNotice({ ...status, lowSalt: false })).toBeNull();
    expect(saltLowNotice(status)).toEqual({ params: { days: 3 }, contentKey: undefined });
    expect(saltLowNotice({ ...status, saltLevelKg: 0.4 })).toEqual({
      params: { days: 3 },
      contentKey: "message.saltEmpty.content",
    });
    expect(saltLowNotice({ ...status, saltDaysLeft: null })).toEqual({
      params: { days: 0 },
      contentKey: "message.saltEmpty.content",
    });
  });
});
