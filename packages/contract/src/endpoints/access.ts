import { PERMISSIONS, type Permission } from "../constants.ts";

// Who may call an endpoint (spec §6). Every endpoint of the contract declares it; the server's route registration
// enforces the declaration and nothing else decides it, so authorization sits in one place.
// Plain data, no zod: the authorization matrix test and the OpenAPI document read it too.

/**
 * The caller an endpoint accepts: `"open"` (no bearer token needed), `"signedIn"` (any valid bearer token), or a
 * permission name of spec §6 (`grantedPolicies`): a signed-in caller whose granted policies lack it gets 403.
 */
export type Caller = "open" | "signedIn" | Permission;

/**
 * The kinds of object a call can touch (spec §6):
 * - `family`: a household, by its id;
 * - `device`: a device, by its id (its household is the one it is bound to);
 * - `deviceMac`: a device, by its MAC (any spelling);
 * - `familyMember`: a membership row (family-user id), standing for its household;
 * - `command`: a device command, by its id, standing for the commanded device;
 * - `shareCode`, `message`, `afterSale`: a share code, message or after-sales request, which belongs to one user;
 * - `setupTicket`: a setup ticket (docs/device-protocol.md §13.4), by the ticket itself, which belongs to its creator.
 */
export type AccessObject =
  | "family"
  | "device"
  | "deviceMac"
  | "familyMember"
  | "command"
  | "shareCode"
  | "message"
  | "afterSale"
  | "setupTicket";

/**
 * The caller's relation to the object: `member` of its household, `admin` (the household administrator), or `owner`
 * (the user it belongs to; only for `shareCode`, `message`, `afterSale` and `setupTicket`).
 */
export type AccessRole = "member" | "admin" | "owner";

/** Where the object's id is in the validated request: a query, path or body field, e.g. `"query.deviceId"`. */
export type AccessRef = `query.${string}` | `params.${string}` | `body.${string}`;

/**
 * An object-level rule: the call touches the `object` whose id is at `in`, and the caller must hold `role` on it.
 * Outcomes, the same on every endpoint: an unknown object answers 404; an object the caller has no part in (a
 * household they are not in, its devices, members and commands, another user's own object) answers exactly the same
 * 404, so it looks absent; a member whose role lacks the right (`admin`) answers 403; `optional`: the rule applies
 * only when the field is present.
 */
export interface ObjectRule {
  object: AccessObject;
  role: AccessRole;
  in: AccessRef;
  optional?: true;
}

/** Who may call an endpoint: the caller and, for calls that touch one household's or user's object, its rule. */
export interface Access {
  caller: Caller;
  object?: ObjectRule;
}

/** Anyone, no token (sign-in, registration, look-ups, articles; spec §7 calls marked open). */
export const OPEN: Access = { caller: "open" };
/** Any signed-in user, about their own account or what they may see of everyone's (catalogues, their lists). */
export const SIGNED_IN: Access = { caller: "signedIn" };

/** A member of the household whose id is at `ref` (spec §6 "Member: use household and devices"). */
export function familyMember(ref: AccessRef): Access {
  return { caller: "signedIn", object: { object: "family", role: "member", in: ref } };
}

/** The administrator of the household whose id is at `ref` (spec §6 "Household Administrator"). */
export function familyAdmin(ref: AccessRef): Access {
  return { caller: "signedIn", object: { object: "family", role: "admin", in: ref } };
}

/**
 * A member of the household of the device at `ref` holding `permission` (spec §6: Device.View to read,
 * Device.Control to command, Device.Setting to rename or re-image).
 */
export function deviceMember(ref: AccessRef, permission: Permission = PERMISSIONS.deviceView): Access {
  return { caller: permission, object: { object: "device", role: "member", in: ref } };
}

/** The user the `object` at `ref` belongs to (their share code, message, after-sales request or setup ticket). */
export function ownerOf(
  object: "shareCode" | "message" | "afterSale" | "setupTicket",
  ref: AccessRef,
  caller: Caller = "signedIn",
) {
  return { caller, object: { object, role: "owner", in: ref } } satisfies Access;
}

/** Whether `access` lets a caller without a bearer token in. */
export function isOpen(access: Access): boolean {
  return access.caller === "open";
}
