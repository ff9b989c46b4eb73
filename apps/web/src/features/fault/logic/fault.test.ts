import type { TDeviceChangeMessage } from "@aquapilot/contract";
import { describe, expect, it } from "vitest";
import { LOCALES } from "../../../app/all-locales.ts";
import { deviceChange } from "../../../shared/testing/fixtures.ts";
import {
  ADVICE_STEPS,
  adviceKeys,
  changesFaults,
  type FaultCause,
  faultCause,
  faultTimeParts,
  localTime,
  rangeEnd,
  reopenWarningKey,
  splitFaults,
} from "./fault.ts";
import { faultFixture } from "./fault-fixture.ts";

const fault = faultFixture;

const message = (over: Partial<TDeviceChangeMessage> = {}): TDeviceChangeMessage =>
  deviceChange({ mac: "0AA5A1E0F001", remainingWaterL: 800, lastReportTime: "2026-06-15T10:00:00.000Z", ...over });

const lookup = (tree: unknown, key: string) =>
  key.split(".").reduce<unknown>((node, part) => (node as Record<string, unknown>)?.[part], tree);

describe("fault causes and what to do (spec §3 close reasons)", () => {
  it("maps offline, refused reports, the four close reasons and unknown codes to their cause", () => {
    expect(faultCause(fault({ kind: "offline", closeReason: null }))).toBe("offline");
    expect(faultCause(fault({ kind: "reports-refused", closeReason: null }))).toBe("reports-refused");
    for (const code of [257, 513, 769, 1025]) expect(faultCause(fault({ closeReason: code }))).toBe(String(code));
    expect(faultCause(fault({ closeReason: 1 }))).toBe("unknown");
  });

  it("has every step, the cause and the after-text of every cause in all five languages", () => {
    const causes = Object.keys(ADVICE_STEPS) as FaultCause[];
    expect(adviceKeys("513")).toEqual(["faults.steps.513.1", "faults.steps.513.2", "faults.steps.513.3"]);
    for (const [lang, tree] of Object.entries(LOCALES)) {
      for (const cause of causes) {
        for (const key of [...adviceKeys(cause), `faults.cause.${cause}`, `faults.after.${cause}`]) {
          expect(typeof lookup(tree, key), `${lang} ${key}`).toBe("string");
        }
        // No step beyond the declared count (a step written but never shown).
        expect(lookup(tree, `faults.steps.${cause}.${ADVICE_STEPS[cause] + 1}`), `${lang} ${cause}`).toBeUndefined();
        expect(typeof lookup(tree, `faults.reopen.confirm.${reopenWarningKey(cause)}`)).toBe("string");
      }
    }
  });

  it("warns before reopening according to the cause", () => {
    expect(reopenWarningKey("257")).toBe("257");
    expect(reopenWarningKey("513")).toBe("513");
    expect(reopenWarningKey("769")).toBe("flow");
    expect(reopenWarningKey("1025")).toBe("flow");
    expect(reopenWarningKey("unknown")).toBe("unknown");
  });
});

describe("fault list order and times", () => {
  it("splits open from resolved, each newest first, a fault without a start last", () => {
    const { open, recent } = splitFaults([
      fault({ id: "r-old", open: false, startedAt: "2026-06-01T00:00:00.000Z" }),
      fault({ id: "o-unknown", startedAt: null }),
      fault({ id: "o-old", startedAt: "2026-06-14T00:00:00.000Z" }),
      fault({ id: "r-new", open: false, startedAt: "2026-06-13T00:00:00.000Z" }),
      fault({ id: "o-new", startedAt: "2026-06-15T09:00:00.000Z" }),
    ]);
    expect(open.map((f) => f.id)).toEqual(["o-new", "o-old", "o-unknown"]);
    expect(recent.map((f) => f.id)).toEqual(["r-new", "r-old"]);
  });

  it("says since when an open fault runs, the range of a resolved one, or that the time is unknown", () => {
    const since = faultTimeParts(fault());
    expect(since.key).toBe("since");
    expect(since.start?.toISOString()).toBe("2026-06-15T10:00:00.000Z");
    const range = faultTimeParts(fault({ open: false, clearedAt: "2026-06-15T10:20:00.000Z" }));
    expect(range.key).toBe("range");
    expect(range.end?.toISOString()).toBe("2026-06-15T10:20:00.000Z");
    expect(faultTimeParts(fault({ open: false })).key).toBe("clearedUnknown");
    expect(faultTimeParts(fault({ startedAt: null })).key).toBe("unknown");
  });

  it("shows the phone's local time, and a range's end without its date on the same local day", () => {
    const start = new Date(2026, 5, 15, 9, 5);
    expect(localTime(start)).toBe("2026-06-15 09:05");
    expect(rangeEnd(start, new Date(2026, 5, 15, 23, 59))).toBe("23:59");
    expect(rangeEnd(start, new Date(2026, 5, 16, 0, 1))).toBe("2026-06-16 00:01");
  });
});

describe("live refresh (hub 1)", () => {
  const list = [fault()];
  it("refreshes on a close or a reset event, not on other events or acknowledgements", () => {
    expect(changesFaults(message({ kind: "event", event: { type: "close", closeReason: 1025 } }), list)).toBe(true);
    expect(changesFaults(message({ kind: "event", event: { type: "reset", closeReason: null } }), list)).toBe(true);
    expect(changesFaults(message({ kind: "event", event: { type: "station", closeReason: null } }), list)).toBe(false);
    expect(changesFaults(message({ kind: "ack", ack: { commandId: "c", ok: true, error: null } }), list)).toBe(false);
  });

  it("refreshes when the online flag or the station disagrees with the list, not for ordinary reports", () => {
    // d1 has an open close: a closed-station report agrees, service disagrees (reopened at the valve).
    expect(changesFaults(message({ station: 5 }), list)).toBe(false);
    expect(changesFaults(message({ station: 0 }), list)).toBe(true);
    // d2 has no fault: service agrees, closed disagrees; going offline disagrees.
    expect(changesFaults(message({ deviceId: "d2", station: 0 }), list)).toBe(false);
    expect(changesFaults(message({ deviceId: "d2", station: 5 }), list)).toBe(true);
    expect(changesFaults(message({ deviceId: "d2", kind: "online", online: false, station: null }), list)).toBe(true);
    expect(changesFaults(message({ deviceId: "d2", kind: "online", online: true, station: null }), list)).toBe(false);
    // An open offline fault: back online disagrees.
    const offline = [fault({ id: "offline:d2", kind: "offline", deviceId: "d2", closeReason: null })];
    expect(changesFaults(message({ deviceId: "d2", kind: "online", online: true, station: null }), offline)).toBe(true);
    // Nothing loaded yet: only news that may add a fault counts.
    expect(changesFaults(message({ kind: "online", online: false, station: null }), undefined)).toBe(true);
    expect(changesFaults(message({ station: 0 }), undefined)).toBe(false);
  });
});
