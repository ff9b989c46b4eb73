import { type Endpoint, endpoints } from "@aquapilot/contract";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { familyWithDevices, signUpUser, type TestFamily, type TestUser } from "../../test/api-factories.ts";
import { type CallOptions, call } from "../../test/call.ts";
import { createTestApp, type TestApp } from "../../test/helpers.ts";

/**
 * Values the spec rules out, picked by hand (the fuzz suite, test/api-fuzz-cases.ts, generates its hostile values
 * from the same schemas the server validates with, so a bound loosened in the contract loosens both). Each case is a
 * valid call with one field replaced, and the answer written here from the spec: the status, the error code and
 * the field the refusal names (validationErrors[].members, spec §7 "error with message, code, validationErrors").
 */

/** One must-refuse case: the call, with one field set to a value the spec forbids, and the expected refusal. */
interface MustRefuse {
  /** The field and the value, as the test name reads. */
  what: string;
  /** The spec's rule the value breaks. */
  rule: string;
  endpoint: Endpoint;
  /** The request; `as` is the signed-in owner unless `anonymous`. */
  request: (ctx: { home: TestFamily }) => { query?: Record<string, string>; body?: unknown };
  anonymous?: true;
  status: number;
  code: string;
  /** The field the refusal names. */
  member: string;
}

const REGISTER = {
  bindType: "1",
  account: "someone@example.com",
  password: "pass-word-1",
  code: "123456",
  serviceRegion: "2",
};

const CASES: MustRefuse[] = [
  {
    what: "e-mail without @",
    rule: "§5 register by e-mail: an e-mail address",
    endpoint: endpoints.sendEmailPasswordCode,
    anonymous: true,
    request: () => ({ query: { email: "someone.example.com" } }),
    status: 400,
    code: "Validation",
    member: "email",
  },
  {
    what: "registration code of 5 digits",
    rule: "§7 codes are 6 digits (send_email_password_code sends a 6-digit code)",
    endpoint: endpoints.register,
    anonymous: true,
    request: () => ({ query: { ...REGISTER, code: "12345" } }),
    status: 400,
    code: "Validation",
    member: "code",
  },
  {
    what: "bind type 3",
    rule: "§3 user bind types: 1 email, 2 phone",
    endpoint: endpoints.register,
    anonymous: true,
    request: () => ({ query: { ...REGISTER, bindType: "3" } }),
    status: 400,
    code: "Validation",
    member: "bindType",
  },
  {
    what: "service region 3",
    rule: "§3 service regions: 1 China, 2 Europe",
    endpoint: endpoints.register,
    anonymous: true,
    request: () => ({ query: { ...REGISTER, serviceRegion: "3" } }),
    status: 400,
    code: "Validation",
    member: "serviceRegion",
  },
  {
    what: "new password of 5 characters",
    rule: "§5 change password: new at least 6 characters (§9 minimum password length 6)",
    endpoint: endpoints.changePassword,
    request: () => ({ body: { currentPassword: "pass-word-1", newPassword: "abcde" } }),
    status: 400,
    code: "Validation",
    member: "newPassword",
  },
  {
    what: "language de",
    rule: "§4 languages: zh-Hans, en, es, ru, fr",
    endpoint: endpoints.changeLanguageType,
    request: () => ({ body: { languageType: "de" } }),
    status: 400,
    code: "Validation",
    member: "languageType",
  },
  {
    what: "delete-account code with a letter",
    rule: "§5 delete account: a 6-digit security code",
    endpoint: endpoints.logOff,
    request: () => ({ query: { code: "12345a" } }),
    status: 400,
    code: "Validation",
    member: "code",
  },
  {
    what: "household name of 200 characters",
    rule: "§3 family name: a name (the app's field takes a short line; 200 characters is no household name)",
    endpoint: endpoints.createFamily,
    request: () => ({
      body: { name: "H".repeat(200), address: "Bund 1", longitude: 121.49, latitude: 31.23 },
    }),
    status: 400,
    code: "Validation",
    member: "name",
  },
  {
    what: "household longitude 181",
    rule: "§3 family location; §5 coordinates are degrees (longitude −180..180)",
    endpoint: endpoints.createFamily,
    request: () => ({ body: { name: "Home", address: "Bund 1", longitude: 181, latitude: 31.23 } }),
    status: 400,
    code: "Validation",
    member: "longitude",
  },
  {
    what: "report time type 4",
    rule: "§3 report time types: 1 month, 2 week, 3 day",
    endpoint: endpoints.deviceFlowStatistics,
    request: ({ home }) => ({ body: { deviceId: home.devices[0]!.id, reportTimeType: 4 } }),
    status: 400,
    code: "Validation",
    member: "reportTimeType",
  },
  {
    what: "page size −1",
    rule: "§7 paged lists send skipCount and maxResultCount (a count)",
    endpoint: endpoints.getFamilies,
    request: () => ({ query: { maxResultCount: "-1" } }),
    status: 400,
    code: "Validation",
    member: "maxResultCount",
  },
  {
    what: "negative raw water hardness",
    rule: "§3 advanced setting rawWaterHardness; §5 wrong configuration: Please enter the correct configuration",
    endpoint: endpoints.controlDevice,
    request: ({ home }) => ({
      query: { deviceId: home.devices[0]!.id },
      body: { command: "set-config", params: { settings: { rawWaterHardness: -5 } } },
    }),
    status: 400,
    code: "Validation",
    member: "rawWaterHardness",
  },
  {
    what: "regeneration trigger time 24:00",
    rule: "§3 regeneratingTriggerTime, a time of day (Hr/Min: 00:00–23:59); §5 wrong configuration",
    endpoint: endpoints.controlDevice,
    request: ({ home }) => ({
      query: { deviceId: home.devices[0]!.id },
      body: { command: "set-config", params: { settings: { regeneratingTriggerTime: "24:00" } } },
    }),
    status: 400,
    code: "Validation",
    member: "regeneratingTriggerTime",
  },
  {
    what: "work pattern 7",
    rule: "§3 work patterns 0-6; §5 wrong configuration",
    endpoint: endpoints.controlDevice,
    request: ({ home }) => ({
      query: { deviceId: home.devices[0]!.id },
      body: { command: "set-config", params: { settings: { workPattern: 7 } } },
    }),
    status: 400,
    code: "Validation",
    member: "workPattern",
  },
  {
    what: "salt level −1 kg",
    rule: "§3 saltAddition (kg): an amount of salt",
    endpoint: endpoints.resetSaltLevel,
    request: ({ home }) => ({ query: { deviceId: home.devices[0]!.id, levelKg: "-1" } }),
    status: 400,
    code: "Validation",
    member: "levelKg",
  },
];

describe("values the spec rules out are refused with the written status, code and field", () => {
  let t: TestApp;
  let owner: TestUser;
  let home: TestFamily;

  beforeAll(async () => {
    t = await createTestApp();
    owner = await signUpUser(t.app);
    home = await familyWithDevices(t, owner, 1);
  });
  afterAll(() => t.close());

  it("has at least a dozen cases on distinct fields", () => {
    expect(new Set(CASES.map((c) => c.member)).size).toBeGreaterThanOrEqual(12);
  });

  for (const c of CASES) {
    it(`${c.endpoint.method} ${c.endpoint.path}: ${c.what} → ${c.status} ${c.code} on ${c.member} (${c.rule})`, async () => {
      const sentBefore = t.devices.calls.length;
      const request = c.request({ home }) as Omit<CallOptions<Endpoint>, "as">;
      const res = await call(t, c.endpoint, { ...request, as: c.anonymous ? null : owner });
      const where = `${res.status} ${res.text.slice(0, 400)}`;
      expect(res.status, where).toBe(c.status);
      expect(res.body, where).toMatchObject({ success: false, result: null, error: { code: c.code } });
      const members = (res.body.error.validationErrors ?? []).flatMap((v) => v.members ?? []);
      expect(members, where).toContain(c.member);
      // A refused command never reaches the device.
      expect(t.devices.calls.length).toBe(sentBefore);
    });
  }
});
