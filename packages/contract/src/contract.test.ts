import { describe, expect, it } from "vitest";
import { HUB_METHODS, HUB_PATHS } from "./constants.ts";
import { endpoints } from "./endpoints.ts";
import { STATION_TEXT, STATIONS, SYSTEM_CLOSE_REASONS, WORK_PATTERNS } from "./enums.ts";
import { deviceTopic, normaliseMac, parseDeviceTopic } from "./mqtt.ts";

describe("contract", () => {
  it("keeps the spec's enumerations (§3)", () => {
    expect(STATIONS).toEqual([0, 1, 2, 3, 4, 5, 6, 7, 8]);
    expect(STATION_TEXT[2]).toBe("brine draw and slow rinse");
    expect(STATION_TEXT[6]).toBe(STATION_TEXT[7]);
    expect(WORK_PATTERNS).toHaveLength(7);
    expect(SYSTEM_CLOSE_REASONS).toEqual([257, 513, 769, 1025]);
  });

  it("keeps the wire names of the hubs (§7) verbatim", () => {
    expect(HUB_PATHS.deviceChange).toBe("/signalr-hubs/device-chang-content-type-message");
    expect(HUB_PATHS.message).toBe("/signalr-hubs/message");
    expect(HUB_METHODS.deviceChange).toBe("DeviceChangContentTypeMessage");
  });

  it("builds and parses device topics, refusing foreign trees", () => {
    const topic = deviceTopic("a1:b2:c3:d4:e5:f6", "state");
    expect(topic).toBe("aq/v1/devices/A1B2C3D4E5F6/state");
    expect(parseDeviceTopic(topic)).toEqual({ mac: "A1B2C3D4E5F6", channel: "state" });
    expect(parseDeviceTopic("aq/v1/devices/A1B2C3D4E5F6/other")).toBeNull();
    expect(parseDeviceTopic("aq/v1/devices/+/state")).toBeNull();
    expect(parseDeviceTopic("x/v1/devices/A1B2C3D4E5F6/state")).toBeNull();
    expect(normaliseMac("a1-b2-c3-d4-e5-f6")).toBe("A1B2C3D4E5F6");
  });

  it("declares every path of the endpoint table under /api", () => {
    for (const e of Object.values(endpoints)) expect(e.path.startsWith("/api/")).toBe(true);
    expect(
      endpoints.register.query.safeParse({ bindType: "1", account: "a@b.cd", password: "x", code: "1" }).success,
    ).toBe(false);
  });
});
