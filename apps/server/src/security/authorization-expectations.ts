// The authorization matrix written from docs/spec.md, independently of the contract's `access` declarations: for
// every call that acts on one household's or one user's object, what each caller must get. The matrix test
// (authorization-matrix.test.ts) checks the server against this table; the declarations only tell it where to put the
// object's id. Reviewed against the spec, row by row:
// - who may do what is spec §6: "Household Administrator: add, edit, delete household; add and remove members;
//   transfer admin. Member: use household and devices; may leave a household, losing access to its devices."
// - objects that belong to one user (their messages, their after-sales requests, the share codes they made; spec §1,
//   §2 My tab "my shares", §3) are that user's alone.
// - the status of a refusal is the server's uniform rule (spec §8 names only 401): anonymous → 401; an object the
//   caller has no part in — a household they are not in, its devices, members and commands, another user's own
//   object — → 404, the very answer of an id nothing has (it looks absent: a stranger cannot learn that an id or MAC
//   exists, docs/security.md "No existence oracles"); a right their role lacks in a household they are in → 403
//   (they know the household already, so it reveals nothing).
// - "ok" is a 2xx answer whose envelope says success with a result of the call's declared shape. A domain outcome that
//   is not about access (the administrator leaving, a command to the fixture's device, which never reported and is
//   offline) is written as its exact status and error code.
// - a call that acts on another user's object without declaring an object rule names why in `exception`.
// - GATED_BY, at the end: which calls each permission of spec §6 gates, for a caller who lacks exactly that one.

/** What one caller must get: a successful answer of the call's shape, a refusal status, or a named domain outcome. */
export type Expected = "ok" | 401 | 403 | 404 | { status: number; code: string };

/** One row: the call (method and path, as spec §7 writes it), the outcome for each caller, and why (spec section). */
export interface ExpectationRow {
  call: string;
  anonymous: Expected;
  /** A signed-in user who is not in the household. */
  stranger: Expected;
  /** A member of the household who is not its administrator. */
  member: Expected;
  /** The household's administrator, who also owns the share code, message and after-sales request of the fixture. */
  admin: Expected;
  why: string;
  /**
   * Set on a call that declares no object rule although it acts on another user's object (its service checks the
   * object): why it is an exception. The matrix requires it exactly on those calls, so an exception is always named.
   */
  exception?: string;
}

/** The administrator cannot leave the household he administers. */
const ADMIN_MUST_HAND_OVER = { status: 409, code: "Conflict" } as const;
/** A command the cloud cannot deliver because the device is offline (spec §8 "Device offline"). */
const DEVICE_OFFLINE = { status: 409, code: "DeviceOffline" } as const;

const FAMILY = "/api/run-lucky/device/app/family";
const FAMILY_DEVICE = "/api/run-lucky/device/app/family-device";
const FAMILY_USER = "/api/run-lucky/device/app/family-user";
const DEVICE_APP = "/api/run-lucky/device/app";
const DEVICE = `${DEVICE_APP}/device`;
const CONTROL = "/api/run-lucky/device/app/device-control";
const LOOKUP = "/api/run-lucky/device/app/device-lookup";
const MODEL = "/api/run-lucky/device/app/device-model";
const FAULT = "/api/run-lucky/device/app/fault";
const POST_SALE = "/api/run-lucky/device/app/post-sale";
const MESSAGE = "/api/push-service/app/message";

/** Household calls anyone in it may make (spec §6 Member: "use household and devices"); to anyone else it is absent. */
const MEMBERS = { anonymous: 401, stranger: 404, member: "ok", admin: "ok" } as const;
/** Household calls only its administrator may make (spec §6 Household Administrator); absent to a stranger. */
const ADMINISTRATOR = { anonymous: 401, stranger: 404, member: 403, admin: "ok" } as const;
/** Objects of one user (the fixture's administrator): nobody else sees them. */
const OWNER = { anonymous: 401, stranger: 404, member: 404, admin: "ok" } as const;

/**
 * The expected outcome of every call that acts on a household's or a user's object, by contract endpoint name
 * (`deviceFlowStatisticsCsv` is the streamed export, kept outside `endpoints`).
 */
export const AUTHORIZATION_EXPECTATIONS: Readonly<Record<string, ExpectationRow>> = {
  // Households (spec §7 …/family)
  getFamily: { call: `GET ${FAMILY}/{id}`, ...MEMBERS, why: "§6 Member: use household (read it)" },
  deleteFamily: { call: `DELETE ${FAMILY}/{id}`, ...ADMINISTRATOR, why: "§6 Administrator: delete household" },
  withdrawFromFamily: {
    call: `POST ${FAMILY}/withdraw-from-family`,
    ...MEMBERS,
    admin: ADMIN_MUST_HAND_OVER,
    why: "§6 Member: may leave a household; the administrator hands over (§6 transfer admin) or deletes first",
  },
  updateFamilyAvatar: {
    call: `PUT ${FAMILY}/update-family-avatar`,
    ...ADMINISTRATOR,
    why: "§6 Administrator: edit household",
  },
  updateFamilyName: {
    call: `PUT ${FAMILY}/update-family-name`,
    ...ADMINISTRATOR,
    why: "§6 Administrator: edit household",
  },
  updateFamilyAddress: {
    call: `PUT ${FAMILY}/update-family-address`,
    ...ADMINISTRATOR,
    why: "§6 Administrator: edit household",
  },

  // Household devices and members (spec §7 …/family-device, …/family-user)
  getFamilyDevices: {
    call: `GET ${FAMILY_DEVICE}/get-list-by-family-id`,
    ...MEMBERS,
    why: "§6 Member: use household and devices",
  },
  getFamilyDashboard: {
    call: `GET ${FAMILY_DEVICE}/dashboard`,
    ...MEMBERS,
    why: "§6 Member: use household and devices",
  },
  getDeviceDetail: { call: `GET ${FAMILY_DEVICE}/get-device-detail`, ...MEMBERS, why: "§6 Member: use devices" },
  updateDeviceSort: {
    call: `PUT ${FAMILY_DEVICE}/update-device-sort`,
    ...MEMBERS,
    why: "§6 Member: use household (§2 Home tab edit, /DeviceSort)",
  },
  deleteDevice: {
    call: `DELETE ${FAMILY_DEVICE}/delete-device`,
    ...ADMINISTRATOR,
    why: "§6 Administrator: edit household (a device leaves it)",
  },
  getFamilyUsers: {
    call: `GET ${FAMILY_USER}/get-list-by-family-id`,
    ...MEMBERS,
    why: "§6 Member: use household (§3 Family: members)",
  },
  removeFamilyUser: { call: `DELETE ${FAMILY_USER}/{id}`, ...ADMINISTRATOR, why: "§6 Administrator: remove members" },
  transferAdministrator: {
    call: `DELETE ${FAMILY_USER}/transfer-administrator`,
    ...ADMINISTRATOR,
    why: "§6 Administrator: transfer admin",
  },
  getShareCode: {
    call: `GET ${FAMILY_USER}/trans-to-other-member-qr-code`,
    ...ADMINISTRATOR,
    why: "§6 Administrator: add members (the QR code invites, §4)",
  },
  revokeShareCode: {
    call: `DELETE ${FAMILY_USER}/revoke-share-code`,
    ...OWNER,
    why: "§2 My tab: my shares — a share code is its maker's",
  },

  // Devices (spec §7 …/device, …/device-model, …/device-lookup)
  bindDevice: {
    call: `POST ${DEVICE}`,
    ...ADMINISTRATOR,
    why: "§6 Administrator: edit household (a device joins it)",
  },
  getDeviceWithData: { call: `GET ${DEVICE}/get-device-with--data`, ...MEMBERS, why: "§6 Member: use devices" },
  // Setup tickets (docs/device-protocol.md §13.4): started by the one who may add a device, read by its creator alone.
  createSetupTicket: {
    call: `POST ${DEVICE_APP}/setup-ticket`,
    ...ADMINISTRATOR,
    why: "§6 Administrator: edit household (a setup ticket starts adding a device)",
  },
  getSetupTicket: {
    call: `GET ${DEVICE_APP}/setup-ticket/{ticket}`,
    ...OWNER,
    why: "§13.4 setup ticket: its creator's (it hands out a pairing code)",
  },
  updateDeviceName: {
    call: `POST ${DEVICE}/update-device-name`,
    ...MEMBERS,
    why: "§6 Member: use devices (§2 /DeviceNameUpdate)",
  },
  updateDeviceImage: {
    call: `POST ${DEVICE}/update-device-image`,
    ...MEMBERS,
    why: "§6 Member: use devices (§2 /DeviceImage)",
  },
  deviceFlowStatistics: { call: `POST ${DEVICE}/device-flow-statistics`, ...MEMBERS, why: "§6 Member: use devices" },
  deviceFlowStatisticsCsv: {
    call: `GET ${DEVICE}/device-flow-statistics/export.csv`,
    ...MEMBERS,
    why: "§6 Member: use devices (the statistics as CSV)",
  },
  getMainImageByDeviceMac: {
    call: `GET ${MODEL}/get-main-image-by-device-mac`,
    ...MEMBERS,
    why: "§6 Member: use devices",
  },
  getImagesByDeviceMac: { call: `GET ${MODEL}/get-images-by-device-mac`, ...MEMBERS, why: "§6 Member: use devices" },
  getDeviceList: {
    call: `GET ${LOOKUP}/get-device-list`,
    ...MEMBERS,
    why: "§6 Member: use household and devices (one household's list)",
  },
  getDeviceModelSetting: {
    call: `GET ${LOOKUP}/get-device-model-setting`,
    ...MEMBERS,
    why: "§6 Member: use devices (§4 device settings)",
  },

  // Device control (spec §7 …/device-control; §4 device settings)
  queryDeviceInfo: { call: `POST ${CONTROL}/query-device-info`, ...MEMBERS, why: "§6 Member: use devices" },
  deviceStationMaxWorkTimeCache: {
    call: `GET ${CONTROL}/device-station-maxworktime-cache`,
    ...MEMBERS,
    why: "§6 Member: use devices",
  },
  queryDeviceInfoReturnResult: {
    call: `POST ${CONTROL}/query-device-info-return-result`,
    ...MEMBERS,
    why: "§6 Member: use devices",
  },
  forcedRegeneration: {
    call: `POST ${CONTROL}/forced-regeneration`,
    ...MEMBERS,
    why: "§6 Member: use devices (§4 forced regeneration)",
  },
  controlDevice: {
    call: `POST ${CONTROL}/control-device`,
    ...MEMBERS,
    why: "§6 Member: use devices (§4 flushing, switch, time sync)",
  },
  queryOtaVersion: { call: `POST ${CONTROL}/query-ota-version`, ...MEMBERS, why: "§6 Member: use devices" },
  deviceOta: { call: `POST ${CONTROL}/device-ota`, ...MEMBERS, why: "§6 Member: use devices (§4 firmware update)" },
  changeVacation: {
    call: `POST ${CONTROL}/change-vacation`,
    ...MEMBERS,
    why: "§6 Member: use devices (§4 vacation mode)",
  },
  exitVacation: { call: `POST ${CONTROL}/exit-vacation`, ...MEMBERS, why: "§6 Member: use devices (§4 vacation mode)" },
  getCommandStatus: {
    call: `GET ${CONTROL}/get-command-status`,
    ...MEMBERS,
    why: "§6 Member: use devices (a command stands for its device)",
  },
  resetSaltLevel: { call: `POST ${CONTROL}/reset-salt-level`, ...MEMBERS, why: "§6 Member: use devices" },
  getSaltStatus: { call: `GET ${CONTROL}/get-salt-status`, ...MEMBERS, why: "§6 Member: use devices" },
  setSaltReminder: { call: `PUT ${CONTROL}/set-salt-reminder`, ...MEMBERS, why: "§6 Member: use devices" },
  getRegenerationCycles: {
    call: `GET ${CONTROL}/get-regeneration-cycles`,
    ...MEMBERS,
    why: "§6 Member: use devices",
  },

  // Faults (spec §2 /Fault)
  getFaultList: {
    call: `GET ${FAULT}/get-fault-list`,
    ...MEMBERS,
    why: "§6 Member: use devices (one device's faults)",
  },
  reopenWater: {
    call: `POST ${FAULT}/reopen-water`,
    ...MEMBERS,
    member: DEVICE_OFFLINE,
    admin: DEVICE_OFFLINE,
    why: "§6 Member: use devices; the fixture's device never reported, so it is offline (§8 Device offline)",
  },

  // After-sales requests (spec §7 …/post-sale; §1 users file them)
  createAfterSale: {
    call: `POST ${POST_SALE}/`,
    ...MEMBERS,
    why: "§1 file after-sales requests, §6 Member: use devices (a device of the household)",
  },
  updateAfterSale: { call: `PUT ${POST_SALE}/{id}`, ...OWNER, why: "§3 after-sales request: its filer's" },
  deleteAfterSale: { call: `DELETE ${POST_SALE}/{id}`, ...OWNER, why: "§3 after-sales request: its filer's" },
  getAfterSale: { call: `GET ${POST_SALE}/{id}`, ...OWNER, why: "§3 after-sales request: its filer's" },

  // Messages (spec §7 /api/push-service/app/message)
  getMessageDetail: {
    call: `GET ${MESSAGE}/get-message-detail`,
    ...OWNER,
    why: "§1 users receive messages: a message is its recipient's",
  },
  setMessageRead: {
    call: `POST ${MESSAGE}/set-message-read`,
    ...OWNER,
    why: "§1, §2 Message tab: only the recipient marks a message read",
    exception:
      "a batch of message ids (body.ids), which an object rule (one id) cannot name: the service refuses the whole " +
      "batch with 404 when one id is not the caller's message",
  },
};

/**
 * Every permission of spec §6 that gates a call, with the calls it gates, written by hand from the spec's areas
 * (household management, device view, control and settings, messages, after-sales) and the app's menus — not read
 * from the contract's declarations. A caller who holds every other permission must be refused each of these (403):
 * the matrix test checks it, and that every call naming a permission is listed here under it.
 */
export const GATED_BY: Readonly<Record<string, readonly string[]>> = {
  // §6 Household Administrator: remove members; a device leaves the household.
  "Family.Manage": ["removeFamilyUser", "deleteDevice"],
  // §6 Member: use devices — everything that reads a device or a household's devices.
  "Device.View": [
    "getFamilyDevices",
    "getDeviceList",
    "queryDeviceInfo",
    "getDeviceWithData",
    "getDeviceDetail",
    "getDeviceModelSetting",
    "deviceStationMaxWorkTimeCache",
    "queryDeviceInfoReturnResult",
    "queryOtaVersion",
    "getSaltStatus",
    "getRegenerationCycles",
    "deviceFlowStatistics",
    "deviceFlowStatisticsCsv",
    "getFaultList",
  ],
  // §4 device settings that act on the valve: regeneration, flushing/switch/time, firmware, vacation, water back on.
  "Device.Control": [
    "forcedRegeneration",
    "controlDevice",
    "deviceOta",
    "changeVacation",
    "exitVacation",
    "reopenWater",
  ],
  // §2 /DeviceNameUpdate, /DeviceImage; the salt settings.
  "Device.Setting": ["updateDeviceName", "updateDeviceImage", "resetSaltLevel", "setSaltReminder"],
  // §2 Message tab.
  Message: [
    "getMessageTypeList",
    "getUserMessageList",
    "getMessageDetail",
    "setMessageRead",
    "setMessageAllRead",
    "testSendMessage",
  ],
  // §1 after-sales requests.
  AfterSale: ["createAfterSale", "getAfterSaleList", "getAfterSale", "updateAfterSale", "deleteAfterSale"],
};

/** What a signed-in user who is not a master holds (spec §6: every permission but "master"), written out. */
export const NON_MASTER_GRANTS = [
  "Family.Manage",
  "Device.View",
  "Device.Control",
  "Device.Setting",
  "Message",
  "AfterSale",
];
