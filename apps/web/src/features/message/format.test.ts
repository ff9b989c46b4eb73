import { describe, expect, it } from "vitest";
import { deviceTarget, formatMessageTime, messageKind } from "./format.ts";

describe("message formatting", () => {
  it("shows only the time for today and the date and time otherwise (local time)", () => {
    const now = new Date(2025, 4, 1, 18, 0, 0);
    expect(formatMessageTime(new Date(2025, 4, 1, 9, 5).toISOString(), now)).toBe("09:05");
    expect(formatMessageTime(new Date(2025, 3, 30, 23, 59).toISOString(), now)).toBe("2025-04-30 23:59");
    expect(formatMessageTime("not a time", now)).toBe("");
  });

  it("maps the message types 1, 2, 3 to alarm, notice, announcement", () => {
    expect(messageKind({ type: 1 })).toBe("alarm");
    expect(messageKind({ type: 2 })).toBe("notice");
    expect(messageKind({ type: 3 })).toBe("announcement");
  });

  it("opens a device only when the message names both device and household", () => {
    expect(deviceTarget({ deviceId: "d1", familyId: "f1" })).toEqual({ deviceId: "d1", familyId: "f1" });
    expect(deviceTarget({ deviceId: "d1", familyId: null })).toBeNull();
    expect(deviceTarget({ deviceId: null, familyId: null })).toBeNull();
  });
});
