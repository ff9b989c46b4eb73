import { SETUP_TICKET_PATTERN } from "@aquapilot/contract/wire";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { LOCALES } from "../../../app/all-locales.ts";
import { ApiError } from "../../../shared/api/errors.ts";
import { fail, fakeApi } from "../../../shared/testing/fake-api.ts";
import { createSetupTicket, getSetupTicket, SetupTicketError, waitForSetupTicket } from "./setup-ticket.ts";

const TICKET = "AbCdEfGhIjKlMnOpQrStUv";
const MAC = "02AB00000001";
const CODE = `${MAC}:tokenTOKENtoken0123456`;
const waiting = { state: "waiting", mac: null, pairingCode: null } as const;
const activated = { state: "activated", mac: MAC, pairingCode: CODE } as const;
const expired = { state: "expired", mac: null, pairingCode: null } as const;

/** The setup-ticket calls of network setup (docs/device-protocol.md §13.4 "Setup tickets") against a fake server. */
describe("setup tickets", () => {
  beforeEach(() => {
    vi.useFakeTimers();
  });
  afterEach(() => {
    vi.useRealTimers();
    vi.unstubAllGlobals();
  });

  /** Lets the fake server's answers and the client's promise steps run without moving the clock. */
  const settle = () => vi.advanceTimersByTimeAsync(0);

  it("creates a ticket for the household and reads one by its value", async () => {
    const server = fakeApi({
      createSetupTicket: { ticket: TICKET, expiresAt: "2026-06-01T08:10:00.000Z" },
      getSetupTicket: waiting,
    });
    expect(await createSetupTicket("f1")).toEqual({ ticket: TICKET, expiresAt: "2026-06-01T08:10:00.000Z" });
    expect(server.lastCall("createSetupTicket")).toMatchObject({ method: "POST", body: { familyId: "f1" } });
    expect(await getSetupTicket(TICKET)).toEqual(waiting);
    expect(server.lastCall("getSetupTicket").params).toEqual({ ticket: TICKET });
    expect(TICKET).toMatch(SETUP_TICKET_PATTERN);
  });

  it("polls every intervalMs until a module activated with it, then answers its MAC and pairing code", async () => {
    const answers = [waiting, waiting, activated];
    const server = fakeApi({ getSetupTicket: () => answers.shift() });
    let outcome: unknown;
    const wait = waitForSetupTicket(TICKET, { intervalMs: 500 }).then((v) => {
      outcome = v;
    });
    await settle();
    expect(server.callsTo("getSetupTicket")).toHaveLength(1);
    await vi.advanceTimersByTimeAsync(499);
    expect(server.callsTo("getSetupTicket")).toHaveLength(1);
    await vi.advanceTimersByTimeAsync(1);
    expect(server.callsTo("getSetupTicket")).toHaveLength(2);
    expect(outcome).toBeUndefined();
    await vi.advanceTimersByTimeAsync(500);
    await wait;
    expect(outcome).toEqual({ mac: MAC, pairingCode: CODE });
    expect(server.callsTo("getSetupTicket")).toHaveLength(3);
    // No read after the answer.
    await vi.advanceTimersByTimeAsync(5_000);
    expect(server.callsTo("getSetupTicket")).toHaveLength(3);
  });

  it("rejects with SetupTicketError expired when the cloud says so, and stops reading", async () => {
    const server = fakeApi({ getSetupTicket: expired });
    const error = await waitForSetupTicket(TICKET).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(SetupTicketError);
    expect(error).toMatchObject({ reason: "expired", messageKey: "networkSetup.setupTicket.expired" });
    expect((error as Error).message).toMatch(/expired/);
    await vi.advanceTimersByTimeAsync(5_000);
    expect(server.callsTo("getSetupTicket")).toHaveLength(1);
  });

  it("rejects with SetupTicketError timeout once timeoutMs passed without an activation", async () => {
    const server = fakeApi({ getSetupTicket: waiting });
    const result = waitForSetupTicket(TICKET, { intervalMs: 1000, timeoutMs: 3_500 }).catch((e: unknown) => e);
    await vi.advanceTimersByTimeAsync(3_499);
    expect(server.callsTo("getSetupTicket")).toHaveLength(4);
    await vi.advanceTimersByTimeAsync(1);
    const error = await result;
    expect(error).toBeInstanceOf(SetupTicketError);
    expect(error).toMatchObject({ reason: "timeout", messageKey: "networkSetup.setupTicket.timeout" });
    await vi.advanceTimersByTimeAsync(5_000);
    expect(server.callsTo("getSetupTicket")).toHaveLength(4);
  });

  it("stops when the signal aborts, with the signal's reason", async () => {
    const server = fakeApi({ getSetupTicket: waiting });
    const controller = new AbortController();
    const result = waitForSetupTicket(TICKET, { signal: controller.signal }).catch((e: unknown) => e);
    await settle();
    controller.abort(new Error("screen left"));
    expect(await result).toMatchObject({ message: "screen left" });
    await vi.advanceTimersByTimeAsync(5_000);
    expect(server.callsTo("getSetupTicket")).toHaveLength(1);
    // Already aborted: nothing is read.
    await expect(waitForSetupTicket(TICKET, { signal: controller.signal })).rejects.toThrow("screen left");
    expect(server.callsTo("getSetupTicket")).toHaveLength(1);
  });

  it("passes a failed read on (404: not the caller's ticket)", async () => {
    fakeApi({ getSetupTicket: () => fail(404, "Setup ticket not found.", "NotFound") });
    const error = await waitForSetupTicket(TICKET).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ApiError);
    expect(error).toMatchObject({ status: 404 });
  });

  it("has the texts of both failures in every language", () => {
    for (const [lang, locale] of Object.entries(LOCALES)) {
      const texts = (locale.networkSetup as { setupTicket?: Record<string, string> }).setupTicket;
      for (const reason of ["expired", "timeout"]) expect(texts?.[reason], `${lang} ${reason}`).toMatch(/\S/);
    }
  });
});
