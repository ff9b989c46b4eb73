import type { TFault } from "@aquapilot/contract/wire";

/**
 * Test support (unit tests only): an open leak close (513) of the device "Cellar" in the household "Home", reopened
 * by command, with `over` applied.
 */
export function faultFixture(over: Partial<TFault> = {}): TFault {
  return {
    id: "close:d1:e1",
    kind: "close",
    deviceId: "d1",
    deviceName: "Cellar",
    deviceOnline: true,
    familyId: "f1",
    familyName: "Home",
    closeReason: 513,
    label: "systemError",
    startedAt: "2026-06-15T10:00:00.000Z",
    clearedAt: null,
    open: true,
    reopen: "command",
    articleId: "fault-leak",
    ...over,
  };
}
