import { describe, expect, it } from "vitest";
import { currentFaults, faultLabel, isKnownCloseReason } from "./fault.js";

describe("faults (spec §3 close reasons, §8 labels)", () => {
  it("labels excessive flow apart from the other close reasons", () => {
    expect(faultLabel(1025)).toBe("excessiveFlow");
    expect(faultLabel(257)).toBe("systemError");
    expect(faultLabel(513)).toBe("systemError");
    expect(faultLabel(769)).toBe("systemError");
    expect(isKnownCloseReason(513)).toBe(true);
    expect(isKnownCloseReason(1)).toBe(false);
  });

  it("lists offline first, then the live close reason", () => {
    expect(currentFaults(true, null)).toEqual([]);
    expect(currentFaults(true, 0)).toEqual([]);
    expect(currentFaults(false, 1025)).toEqual([
      { closeReason: null, label: "deviceOffline" },
      { closeReason: 1025, label: "excessiveFlow" },
    ]);
  });
});
