import type { TDeviceChangeMessage } from "@aquapilot/contract";
import { describe, expect, it } from "vitest";
import { deviceChange } from "../testing/fixtures.ts";
import { refreshesStatistics } from "./live-refresh.ts";

const base = deviceChange({ mac: "0211AABBCCDD", remainingWaterL: 100, flowRateLpm: 2 });
const event = (type: string): TDeviceChangeMessage => ({ ...base, kind: "event", event: { type, closeReason: null } });

describe("refreshesStatistics", () => {
  it("refreshes on a regeneration start or end of this device", () => {
    expect(refreshesStatistics(event("regeneration-end"), "d1")).toBe(true);
    expect(refreshesStatistics(event("regeneration-start"), "d1")).toBe(true);
  });
  it("refreshes on a successful acknowledgement", () => {
    const ack = { ...base, kind: "ack" as const, ack: { commandId: "c", ok: true, error: null } };
    expect(refreshesStatistics(ack, "d1")).toBe(true);
    expect(refreshesStatistics({ ...ack, ack: { commandId: "c", ok: false, error: "busy" } }, "d1")).toBe(false);
    expect(refreshesStatistics({ ...ack, ack: null }, "d1")).toBe(false);
    expect(refreshesStatistics({ ...ack, ack: { ...ack.ack, command: "forced-regeneration" } }, "d1")).toBe(true);
  });
  it("not on the acknowledgement of a report asked for (query, sent by each Device screen opened)", () => {
    const ack = { ...base, kind: "ack" as const, ack: { commandId: "c", ok: true, error: null, command: "query" } };
    expect(refreshesStatistics(ack, "d1")).toBe(false);
  });
  it("ignores other devices, other events and plain states", () => {
    expect(refreshesStatistics(event("regeneration-end"), "d2")).toBe(false);
    expect(refreshesStatistics(event("ota-progress"), "d1")).toBe(false);
    expect(refreshesStatistics({ ...base, kind: "event", event: null }, "d1")).toBe(false);
    expect(refreshesStatistics(base, "d1")).toBe(false);
    expect(refreshesStatistics({ ...base, kind: "online" }, "d1")).toBe(false);
  });
});
