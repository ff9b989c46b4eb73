import { describe, expect, it } from "vitest";
import {
  type CommandEvent,
  type CommandState,
  commandReducer,
  IDLE,
  isPending,
  newCommandId,
} from "./command-state.ts";

const run = (...events: CommandEvent[]): CommandState => events.reduce(commandReducer, IDLE);
const send: CommandEvent = { type: "send", kind: "forcedRegeneration", at: 1 };

describe("command state machine", () => {
  it("goes pending → done on the ack with its id", () => {
    const pending = run(send, { type: "accepted", commandId: "c1" });
    expect(isPending(pending)).toBe(true);
    const done = commandReducer(pending, { type: "ack", ack: { commandId: "c1", ok: true, error: null } });
    expect(done).toEqual({ status: "done", kind: "forcedRegeneration", commandId: "c1" });
  });

  it("ignores acks of other commands", () => {
    const state = run(
      send,
      { type: "accepted", commandId: "c1" },
      { type: "ack", ack: { commandId: "c2", ok: true, error: null } },
    );
    expect(state.status).toBe("pending");
  });

  it("keeps an ack that arrives before the call answers", () => {
    const state = run(
      send,
      { type: "ack", ack: { commandId: "c1", ok: false, error: "busy" } },
      { type: "accepted", commandId: "c1" },
    );
    expect(state).toEqual({
      status: "failed",
      kind: "forcedRegeneration",
      failure: { reason: "refused", error: "busy" },
    });
  });

  it("fails with offline on timeout or when offline", () => {
    expect(run(send, { type: "accepted", commandId: "c1" }, { type: "timeout" })).toMatchObject({
      status: "failed",
      failure: { reason: "offline" },
    });
    expect(run(send, { type: "offline" })).toMatchObject({ status: "failed", failure: { reason: "offline" } });
  });

  it("fails with the call's error", () => {
    expect(run(send, { type: "error", message: "Server error" })).toMatchObject({
      status: "failed",
      failure: { reason: "error", message: "Server error" },
    });
  });

  it("is done at once when the server answers no command id", () => {
    expect(run(send, { type: "accepted", commandId: null }).status).toBe("done");
  });

  it("refuses a second send while pending and ignores late events once settled", () => {
    const pending = run(send, { type: "accepted", commandId: "c1" });
    expect(commandReducer(pending, { type: "send", kind: "ota", at: 2 })).toBe(pending);
    expect(commandReducer(pending, { type: "reset" })).toBe(pending);
    const done = commandReducer(pending, { type: "ack", ack: { commandId: "c1", ok: true, error: null } });
    expect(commandReducer(done, { type: "timeout" })).toBe(done);
    expect(commandReducer(done, { type: "reset" })).toEqual(IDLE);
  });
});

describe("newCommandId", () => {
  it("gives a fresh random v4 id each time (spec §9)", () => {
    const ids = new Set(Array.from({ length: 50 }, () => newCommandId()));
    expect(ids.size).toBe(50);
    for (const id of ids) expect(id).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
  });
});
