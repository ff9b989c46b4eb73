import { endpoints } from "@aquapilot/contract";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { familyWithDevices, signUpUser, type TestFamily, type TestUser } from "../../test/api-factories.ts";
import { call, okResult } from "../../test/call.ts";
import { createTestApp, type TestApp } from "../../test/helpers.ts";

/**
 * The answers of one representative call per area of the API (account, household, members, devices, device control,
 * statistics, messages, after-sales, help), each checked against a shape written here by hand: literal field names
 * and JSON types, with the envelope of spec §7 ("success flag, result; … items with totalCount"; a failure carries
 * error with message, code, validationErrors). The OpenAPI check of every answer (test/openapi-answers.ts) is derived
 * from the same contract as the server, so a field renamed in the contract passes it; it fails here.
 */

/**
 * A hand-written shape: a JSON type name ("string", "number", "integer", "boolean", "null", "time" — ISO 8601 text),
 * several joined by "|", an object of shapes (exactly these keys), or a one-element array (every element).
 */
type Shape = string | readonly [Shape] | { readonly [key: string]: Shape };

/** Whether `value` is of the one type `name` (see {@link Shape}). */
function isType(value: unknown, name: string): boolean {
  switch (name) {
    case "string":
      return typeof value === "string";
    case "number":
      return typeof value === "number" && Number.isFinite(value);
    case "integer":
      return Number.isInteger(value);
    case "boolean":
      return typeof value === "boolean";
    case "null":
      return value === null;
    case "time":
      return typeof value === "string" && /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?Z$/.test(value);
    default:
      throw new Error(`unknown type name ${name} in a shape`);
  }
}

/**
 * Every difference between `value` and `shape`, as "path: what differs" lines (none when it matches): a missing or
 * unexpected key, a value of another type. An empty array matches any element shape.
 */
function shapeProblems(value: unknown, shape: Shape, path = "answer"): string[] {
  if (typeof shape === "string") {
    return shape.split("|").some((name) => isType(value, name))
      ? []
      : [`${path}: ${JSON.stringify(value)} is not ${shape}`];
  }
  if (Array.isArray(shape)) {
    if (!Array.isArray(value)) return [`${path}: not an array`];
    return value.flatMap((item, i) => shapeProblems(item, shape[0], `${path}[${i}]`));
  }
  if (typeof value !== "object" || value === null || Array.isArray(value)) return [`${path}: not an object`];
  const fields = shape as Record<string, Shape>;
  const got = value as Record<string, unknown>;
  return [
    ...Object.keys(fields)
      .filter((key) => !(key in got))
      .map((key) => `${path}.${key}: missing`),
    ...Object.keys(got)
      .filter((key) => !(key in fields))
      .map((key) => `${path}.${key}: not expected`),
    ...Object.keys(fields)
      .filter((key) => key in got)
      .flatMap((key) => shapeProblems(got[key], fields[key]!, `${path}.${key}`)),
  ];
}

/** The success envelope of spec §7 around `result`. */
const ok = (result: Shape): Shape => ({
  success: "boolean",
  result,
  error: "null",
  unAuthorizedRequest: "boolean",
  __abp: "boolean",
});

/** A paged list of spec §7: items and totalCount. */
const pagedOf = (item: Shape): Shape => ({ items: [item], totalCount: "integer" });

const PROFILE: Shape = {
  id: "string",
  userName: "string",
  name: "string|null",
  email: "string|null",
  phoneNumber: "string|null",
  countryCode: "string|null",
  serviceRegion: "integer",
  languageType: "string",
  avatar: "string|null",
  creationTime: "time",
};

const FAMILY: Shape = {
  id: "string",
  name: "string",
  address: "string|null",
  longitude: "number|null",
  latitude: "number|null",
  province: "string|null",
  city: "string|null",
  district: "string|null",
  avatar: "string|null",
  isAdmin: "boolean",
  memberCount: "integer",
  deviceCount: "integer",
  creationTime: "time",
};

const MEMBER: Shape = {
  id: "string",
  familyId: "string",
  userId: "string",
  userName: "string",
  name: "string|null",
  avatar: "string|null",
  isAdmin: "boolean",
  joinTime: "time",
};

const FAMILY_DEVICE: Shape = {
  id: "string",
  familyId: "string",
  name: "string",
  image: "string|null",
  online: "boolean",
  station: "integer|null",
  sort: "integer",
  mac: "string",
  deviceModel: "string|null",
  lastReportTime: "time|null",
  lastHeardAt: "time|null",
  reportsRefusedSince: "time|null",
  reportsRefusedReason: "string|null",
};

const DEVICE_INFO: Shape = {
  id: "string",
  mac: "string",
  name: "string",
  model: "string|null",
  deviceSerialNumber: "string|null",
  serialNumber: "string|null",
  firmwareVersion: "string|null",
  online: "boolean",
  station: "integer|null",
  stationRemainingSeconds: "number|null",
  stationElapsedSeconds: "number|null",
  stationDurationSeconds: "number|null",
  serviceRemainingSeconds: "number|null",
  reportedAt: "time|null",
  clockRate: "number",
  remainingWaterL: "number|null",
  capacityL: "number|null",
  flowRateLpm: "number|null",
  totalWaterL: "number|null",
  vacation: "boolean",
  closeReason: "integer|null",
  lastReportTime: "time|null",
  registeredAt: "time",
  commandId: "string|null",
  lastHeardAt: "time|null",
  reportsRefusedSince: "time|null",
  reportsRefusedReason: "string|null",
};

const AMOUNTS = { waterL: "number", regenerations: "integer", saltKg: "number" } as const;
const FLOW_STATISTICS: Shape = {
  lastReportTime: "time|null",
  clockDriftSeconds: "number|null",
  deviceId: "string",
  reportTimeType: "integer",
  from: "time",
  to: "time",
  bucket: "string",
  buckets: [{ start: "time", ...AMOUNTS }],
  totals: AMOUNTS,
};

const MESSAGE: Shape = {
  id: "string",
  type: "integer",
  title: "string",
  content: "string",
  isRead: "boolean",
  readTime: "time|null",
  creationTime: "time",
  deviceId: "string|null",
  deviceName: "string|null",
  familyId: "string|null",
  event: "string|null",
  closeReason: "integer|null",
};

const AFTER_SALE: Shape = {
  id: "string",
  deviceId: "string",
  deviceName: "string|null",
  familyId: "string|null",
  description: "string",
  photos: ["string"],
  contactPhone: "string|null",
  handled: "boolean",
  handledTime: "time|null",
  reply: "string|null",
  diagnostics: "string|null",
  creationTime: "time",
  lastModificationTime: "time|null",
};

const ARTICLE: Shape = {
  id: "string",
  title: "string",
  summary: "string",
  content: "string",
  category: "string",
  language: "string",
  sort: "integer",
  lastModificationTime: "time",
};

/** The failure envelope of spec §7 and §8: error with code, message, details, validationErrors (a list or null). */
const REFUSED: Shape = {
  success: "boolean",
  result: "null",
  error: {
    code: "string",
    message: "string",
    details: "string|null",
    validationErrors: [{ message: "string", members: ["string"] }],
  },
  unAuthorizedRequest: "boolean",
  __abp: "boolean",
};

describe("answers of one call per area, against shapes written by hand (spec §7)", () => {
  let t: TestApp;
  let owner: TestUser;
  let home: TestFamily;
  let deviceId: string;

  beforeAll(async () => {
    t = await createTestApp();
    owner = await signUpUser(t.app);
    home = await familyWithDevices(t, owner, 1);
    deviceId = home.devices[0]!.id;
  });
  afterAll(() => t.close());

  /** Asserts a 200 whose body (the whole envelope) has `shape`, exactly. */
  const expectShape = (res: { status: number; body: unknown; text: string }, shape: Shape) => {
    expect(res.status, res.text.slice(0, 300)).toBe(200);
    expect(shapeProblems(res.body, shape)).toEqual([]);
  };

  it("account: GET profile", async () => {
    expectShape(await call(t, endpoints.getProfile, { as: owner }), ok(PROFILE));
  });

  it("household: GET family (paged)", async () => {
    const res = await call(t, endpoints.getFamilies, { as: owner });
    expect(res.result.items).toHaveLength(1);
    expectShape(res, ok(pagedOf(FAMILY)));
  });

  it("members: GET family-user/get-list-by-family-id", async () => {
    const res = await call(t, endpoints.getFamilyUsers, { as: owner, query: { familyId: home.id } });
    expect(res.result).toHaveLength(1);
    expectShape(res, ok([MEMBER]));
  });

  it("devices: GET family-device/get-list-by-family-id", async () => {
    const res = await call(t, endpoints.getFamilyDevices, { as: owner, query: { familyId: home.id } });
    expect(res.result).toHaveLength(1);
    expectShape(res, ok([FAMILY_DEVICE]));
  });

  it("device control: POST device-control/query-device-info", async () => {
    expectShape(await call(t, endpoints.queryDeviceInfo, { as: owner, query: { deviceId } }), ok(DEVICE_INFO));
  });

  it("statistics: POST device/device-flow-statistics (a day, by hour)", async () => {
    const res = await call(t, endpoints.deviceFlowStatistics, { as: owner, body: { deviceId, reportTimeType: 3 } });
    expect(res.result.buckets.length).toBeGreaterThan(0);
    expectShape(res, ok(FLOW_STATISTICS));
  });

  it("messages: GET message/get-user-message-list (paged)", async () => {
    await okResult(call(t, endpoints.testSendMessage, { as: owner }));
    const res = await call(t, endpoints.getUserMessageList, { as: owner });
    expect(res.result.items.length).toBeGreaterThan(0);
    expectShape(res, ok(pagedOf(MESSAGE)));
  });

  it("after-sales: GET post-sale/{id}", async () => {
    const made = await okResult(
      call(t, endpoints.createAfterSale, { as: owner, body: { deviceId, description: "Beeps at night." } }),
    );
    expectShape(await call(t, endpoints.getAfterSale, { as: owner, params: { id: made.id } }), ok(AFTER_SALE));
  });

  it("help: GET article/{id}", async () => {
    expectShape(await call(t, endpoints.getArticle, { params: { id: "salt" } }), ok(ARTICLE));
  });

  it("a refused call: the failure envelope with error code, message and validationErrors", async () => {
    const res = await call(t, endpoints.deviceFlowStatistics, { as: owner, body: { deviceId, reportTimeType: 9 } });
    expect(res.status).toBe(400);
    expect(shapeProblems(res.body, REFUSED)).toEqual([]);
  });

  it("the shape check itself tells a renamed, a missing and a mistyped field", () => {
    const shape: Shape = { id: "string", isRead: "boolean", at: "time|null", tags: ["string"] };
    expect(shapeProblems({ id: "a", isRead: true, at: null, tags: ["x"] }, shape)).toEqual([]);
    expect(shapeProblems({ id: "a", read: true, at: null, tags: [] }, shape)).toEqual([
      "answer.isRead: missing",
      "answer.read: not expected",
    ]);
    expect(shapeProblems({ id: 1, isRead: true, at: "yesterday", tags: [2] }, shape)).toEqual([
      "answer.id: 1 is not string",
      'answer.at: "yesterday" is not time|null',
      "answer.tags[0]: 2 is not string",
    ]);
  });
});
