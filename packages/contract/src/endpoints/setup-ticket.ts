import { z } from "zod";
import { ZSetupTicket } from "../activation.ts";
import { SETUP_TICKET_STATES } from "../constants.ts";
import { familyAdmin, ownerOf } from "./access.ts";
import { endpoint, noQuery, ZId, ZIsoTime } from "./define.ts";

// Setup tickets (docs/device-protocol.md §13.4 "Setup tickets"): how the phone learns from the cloud which module it
// just set up when the module's firmware hands the app no pairing code.

/** A created setup ticket: the value to hand the module (22 base64url characters) and when it expires (ISO UTC). */
export const ZSetupTicketCreated = z.object({
  /** 16 random bytes, base64url ({@link SETUP_TICKET_PATTERN}); shown only to its creator, stored only hashed. */
  ticket: z.string(),
  /** ISO 8601 UTC; ACTIVATION_TOKEN_MINUTES (10) after creation. */
  expiresAt: ZIsoTime,
});
export type TSetupTicketCreated = z.infer<typeof ZSetupTicketCreated>;

/**
 * What a setup ticket says: `waiting` (no module activated with it yet; nulls), `activated` (the module's MAC, 12
 * upper-case hex digits, and a fresh single-use pairing code `MAC:TOKEN` valid ACTIVATION_TOKEN_MINUTES for binding it)
 * or `expired` (unused at its expiry; nulls). An activated ticket answers a new pairing code on each read until it
 * expires.
 */
export const ZSetupTicketStatus = z.object({
  state: z.enum(SETUP_TICKET_STATES),
  mac: z.string().nullable(),
  pairingCode: z.string().nullable(),
});
export type TSetupTicketStatus = z.infer<typeof ZSetupTicketStatus>;

/** Setup tickets (docs/device-protocol.md §13.4). */
export const setupTicketEndpoints = {
  createSetupTicket: endpoint({
    method: "POST",
    access: familyAdmin("body.familyId"),
    path: "/api/run-lucky/device/app/setup-ticket",
    query: noQuery,
    body: z.object({ familyId: ZId }),
    result: ZSetupTicketCreated,
    summary: "Create a setup ticket to hand a module during network setup (administrator of the household)",
  }),
  getSetupTicket: endpoint({
    method: "GET",
    access: ownerOf("setupTicket", "params.ticket"),
    path: "/api/run-lucky/device/app/setup-ticket/{ticket}",
    query: noQuery,
    params: z.object({ ticket: ZSetupTicket }),
    body: undefined,
    result: ZSetupTicketStatus,
    summary: "Whether a module activated with the caller's setup ticket: its MAC and a pairing code to bind it",
  }),
} as const;
