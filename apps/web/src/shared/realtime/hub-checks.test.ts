import { ZDeviceChangeMessage, ZMessage } from "@aquapilot/contract";
import { describe, expect, it } from "vitest";
import { deviceChange } from "../testing/fixtures.ts";
import { PRODUCTION_CHECKS, productionCheck } from "./hub-checks.ts";

/** A hub 1 message as the server sends it (contract ZDeviceChangeMessage). */
const change = ZDeviceChangeMessage.parse(
  deviceChange({
    mac: "AA:BB:CC:DD:EE:01",
    station: 1,
    stationRemainingSeconds: 120,
    remainingWaterL: 800,
    flowRateLpm: 3.5,
    lastReportTime: "2025-05-01T10:00:00.000Z",
  }),
);

/** A hub 2 message as the server sends it (contract ZMessage). */
const message = ZMessage.parse({
  id: "m1",
  type: 1,
  title: "Leak detected",
  content: "The valve closed.",
  isRead: false,
  readTime: null,
  creationTime: "2025-05-01T10:00:00.000Z",
  deviceId: null,
  deviceName: null,
  familyId: "f1",
  event: null,
  closeReason: null,
});

describe("production's checks of the hubs' messages (no zod in the production hub chunk)", () => {
  it("take what the contract's schemas take", () => {
    expect(PRODUCTION_CHECKS.deviceChange.safeParse(change)).toEqual({ success: true, data: change });
    expect(PRODUCTION_CHECKS.message.safeParse(message)).toEqual({ success: true, data: message });
    for (const kind of ZDeviceChangeMessage.shape.kind.options) {
      expect(PRODUCTION_CHECKS.deviceChange.safeParse({ ...change, kind }).success).toBe(true);
    }
  });

  it("drop a message without what the screens read, as the contract's schemas do", () => {
    const bad: Array<[keyof typeof PRODUCTION_CHECKS, unknown]> = [
      ["deviceChange", null],
      ["deviceChange", [change]],
      ["deviceChange", { ...change, kind: "nope" }],
      ["deviceChange", { ...change, deviceId: 7 }],
      ["deviceChange", { ...change, station: "1" }],
      ["deviceChange", { ...change, online: undefined }],
      ["message", "m1"],
      ["message", { ...message, isRead: "no" }],
      ["message", { ...message, title: null }],
      ["message", { ...message, deviceId: undefined }],
    ];
    for (const [which, value] of bad) {
      const schema = which === "deviceChange" ? ZDeviceChangeMessage : ZMessage;
      expect(schema.safeParse(value).success, JSON.stringify(value)).toBe(false);
      expect(PRODUCTION_CHECKS[which].safeParse(value).success, JSON.stringify(value)).toBe(false);
    }
  });

  it("say which field was wrong", () => {
    const check = productionCheck<{ a: string }>({ a: ["string", "null"] }, { b: [1, 2] });
    expect(check.safeParse({ a: null, b: 2 }).success).toBe(true);
    expect(check.safeParse({ a: 1, b: 2 })).toEqual({
      success: false,
      error: { message: "a: expected string,null, got number" },
    });
    expect(check.safeParse({ a: "x", b: 3 })).toEqual({ success: false, error: { message: "b: 3 is not one of 1,2" } });
  });
});
