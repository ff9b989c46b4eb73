import { type DomainEventKind, type Endpoint, endpoints, type TDomainEvent } from "@aquapilot/contract";
import type { AccessGrant } from "../auth/access.ts";
import type { Db } from "../db/index.ts";

/**
 * The domain event of every mutating call (docs/messages-push.md "Domain events"): each POST, PUT and DELETE of the
 * contract declares here either the one event its success publishes (kind and ids, read from the validated request,
 * what the call's object rule found and the answer), or why it publishes none. `registerEndpoint` (route.ts) refuses
 * to register a mutating endpoint without a declaration, and route-events.test.ts walks the contract, so a new call
 * cannot be added without saying what its change is.
 */

/** What a declaration reads: the call's validated parts, the caller, its object rule's grant and its answer. */
export interface RouteEventInput {
  query: Record<string, unknown>;
  body: Record<string, unknown> | undefined;
  params: Record<string, unknown> | undefined;
  /** The caller, null for an anonymous one. */
  userId: string | null;
  /** What the endpoint's object rule found (household, device), null without a rule. */
  grant: AccessGrant | null;
  /** The handler's result (before the ABP envelope). */
  result: unknown;
  /** For the few declarations that must look an id up (the external callback names a MAC only). */
  db: Db;
}

/** The event a declaration makes: kind and ids; absent ids are null. null: this success changed nothing. */
export type RouteEvent = {
  kind: DomainEventKind;
  familyId?: string | null;
  deviceId?: string | null;
  userId?: string | null;
} | null;

/** One mutating call's declaration: the event it publishes, or (`publishesNothing`) why it publishes none. */
export type RouteEventDeclaration =
  | { publishes: (input: RouteEventInput) => RouteEvent | Promise<RouteEvent> }
  | { publishesNothing: string };

const text = (value: unknown): string | null => (typeof value === "string" && value !== "" ? value : null);
const field = (part: Record<string, unknown> | undefined, name: string): string | null => text(part?.[name]);

/** A change of the device the call's rule found, to its household. */
const deviceChange = (kind: DomainEventKind): RouteEventDeclaration => ({
  publishes: ({ grant }) => ({ kind, familyId: grant?.familyId ?? null, deviceId: grant?.deviceId ?? null }),
});
/** A change of the household named by the call's rule. */
const familyChange = (kind: DomainEventKind): RouteEventDeclaration => ({
  publishes: ({ grant }) => ({ kind, familyId: grant?.familyId ?? null }),
});
/** A change of the caller's own data. */
const ownChange = (kind: DomainEventKind): RouteEventDeclaration => ({
  publishes: ({ userId }) => ({ kind, userId }),
});

const READ = "a read: it changes nothing another screen shows";

/**
 * The declaration of every mutating endpoint of the contract, by endpoint name. Commands to a device publish `device`
 * when answered (done or refused: either way the command's state on other phones moves on); the progress the
 * softener then reports arrives on hub 1 as `DeviceChangContentTypeMessage`.
 */
export const ROUTE_EVENTS: Partial<Record<keyof typeof endpoints, RouteEventDeclaration>> = {
  // account and profile
  register: { publishesNothing: "an anonymous sign-up: no session of the new user is open yet" },
  resetPassword: { publishesNothing: "ends the user's sessions (bus user.revoked closes their hub connections)" },
  updateProfile: ownChange("settings"),
  uploadAvatar: ownChange("settings"),
  changePassword: { publishesNothing: "ends the user's other sessions (bus user.revoked closes their connections)" },
  changeLanguageType: ownChange("settings"),
  updatePhoneOrEmailVerification: { publishesNothing: "a verification step: issues a ticket, changes nothing shown" },
  sendUserIdentityVerification: { publishesNothing: "sends a code: changes nothing shown" },
  updatePhone: ownChange("settings"),
  updateEmail: ownChange("settings"),
  logOff: {
    publishesNothing:
      "deletes the account: bus user.revoked closes its sessions, family.members-changed ends its households' access",
  },
  // households
  createFamily: {
    publishes: ({ userId, result }) => ({ kind: "family", familyId: field(result as never, "id"), userId }),
  },
  deleteFamily: {
    // The members are gone once it is deleted: the caller's other phones hear it as theirs; the others' hub-1
    // connections close with FamilyAccessEnded and their app reads its households again.
    publishes: ({ userId, params }) => ({ kind: "family", familyId: field(params, "id"), userId }),
  },
  withdrawFromFamily: { publishes: ({ userId, grant }) => ({ kind: "member", familyId: grant?.familyId, userId }) },
  updateFamilyAvatar: familyChange("family"),
  updateFamilyName: familyChange("family"),
  updateFamilyAddress: familyChange("family"),
  // The removed member's hub-1 connections close with FamilyAccessEnded; the others hear this event.
  removeFamilyUser: familyChange("member"),
  transferAdministrator: {
    publishes: ({ grant, query }) => ({ kind: "member", familyId: grant?.familyId, userId: field(query, "userId") }),
  },
  analysisCode: {
    publishes: ({ userId, result }) => {
      const answer = result as { familyId?: string; joined?: boolean } | null;
      return answer?.joined ? { kind: "member", familyId: answer.familyId ?? null, userId } : null;
    },
  },
  revokeShareCode: ownChange("share-codes"),
  getRegionChildren: { publishesNothing: READ },
  // devices
  queryDeviceInfo: {
    publishesNothing:
      "a read that asks the softener to report: its answer arrives on hub 1 as DeviceChangContentTypeMessage (an event here would make every open Device screen ask again, for ever)",
  },
  bindDevice: {
    publishes: ({ grant, result }) => ({
      kind: "family-devices",
      familyId: grant?.familyId,
      deviceId: field(result as never, "id"),
    }),
  },
  updateDeviceName: deviceChange("device"),
  updateDeviceImage: deviceChange("device"),
  updateDeviceSort: familyChange("family-devices"),
  deleteDevice: deviceChange("family-devices"),
  sendDeviceConfigChangeMessage: {
    publishes: async ({ db, result }) => {
      const deviceId = field(result as never, "deviceId");
      if (!deviceId) return null;
      const row = await db.selectFrom("devices").select("family_id").where("id", "=", deviceId).executeTakeFirst();
      return { kind: "device", familyId: row?.family_id ?? null, deviceId };
    },
  },
  queryDeviceInfoReturnResult: { publishesNothing: READ },
  forcedRegeneration: deviceChange("device"),
  controlDevice: deviceChange("device"),
  queryOtaVersion: { publishesNothing: READ },
  deviceOta: deviceChange("device"),
  changeVacation: deviceChange("device"),
  exitVacation: deviceChange("device"),
  resetSaltLevel: deviceChange("device"),
  setSaltReminder: deviceChange("device"),
  deviceFlowStatistics: { publishesNothing: READ },
  reopenWater: deviceChange("device"),
  // messages and push
  setMessageRead: ownChange("message-read"),
  setMessageAllRead: ownChange("message-read"),
  testSendMessage: { publishesNothing: "its message reaches the user's sessions on hub 2 as ReceiveMessage" },
  appDeviceBinding: { publishesNothing: "one phone's own push registration: no screen shows another phone's" },
  appDeviceUnbinding: { publishesNothing: "one phone's own push registration: no screen shows another phone's" },
  setPushSwitch: ownChange("settings"),
  webPushSubscribe: { publishesNothing: "one browser's own push subscription: no screen shows another's" },
  webPushUnsubscribe: { publishesNothing: "one browser's own push subscription: no screen shows another's" },
  // after-sales, files, preferences
  createAfterSale: ownChange("after-sale"),
  updateAfterSale: ownChange("after-sale"),
  deleteAfterSale: ownChange("after-sale"),
  uploadFile: { publishesNothing: "stores a file: nothing shows it until a call names it (and publishes)" },
  setUnitPreferences: ownChange("settings"),
  // setup tickets
  createSetupTicket: {
    publishesNothing: "a setup ticket is read only by the screen that created it, which holds the answer",
  },
};

const NAME_OF = new Map<Endpoint, string>(
  Object.entries(endpoints as Record<string, Endpoint>).map(([n, e]) => [e, n]),
);

/** Whether a call of this method changes something (POST, PUT, DELETE) and so must declare its event. */
export function isMutating(ep: Pick<Endpoint, "method">): boolean {
  return ep.method !== "GET";
}

/**
 * The declaration of `ep` and its contract name, for route registration: null for a read (GET).
 * @throws Error when `ep` is mutating and {@link ROUTE_EVENTS} has no declaration for it (or it is not a contract
 *   endpoint): registration stops, so no mutating call is served without saying what it changes.
 */
export function routeEventOf(ep: Endpoint): { name: string; declaration: RouteEventDeclaration } | null {
  if (!isMutating(ep)) return null;
  const name = NAME_OF.get(ep);
  const declaration = name ? ROUTE_EVENTS[name as keyof typeof endpoints] : undefined;
  if (!name || !declaration) {
    throw new Error(`${ep.method} ${ep.path} declares no domain event: add it to ROUTE_EVENTS (http/route-events.ts)`);
  }
  return { name, declaration };
}

/**
 * The domain event a successful call publishes (contract ZDomainEvent): its declaration's kind and ids, `cause` the
 * endpoint's name. null when it declares none, or when this success changed nothing (a share-code preview), or the
 * event would reach nobody (neither a household nor a user).
 */
export async function domainEventOf(
  route: { name: string; declaration: RouteEventDeclaration },
  input: RouteEventInput,
): Promise<TDomainEvent | null> {
  if (!("publishes" in route.declaration)) return null;
  const made = await route.declaration.publishes(input);
  if (!made) return null;
  const event: TDomainEvent = {
    kind: made.kind,
    familyId: made.familyId ?? null,
    deviceId: made.deviceId ?? null,
    userId: made.userId ?? null,
    cause: route.name,
  };
  return event.familyId === null && event.userId === null ? null : event;
}
