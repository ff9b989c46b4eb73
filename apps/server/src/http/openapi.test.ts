import { deviceFlowStatisticsCsv, type Endpoint, endpoints, REVOCATION_PATH, TOKEN_PATH } from "@aquapilot/contract";
import { Validator } from "@seriousme/openapi-schema-validator";
import Fastify from "fastify";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestApp, type TestApp } from "../../test/helpers.ts";
import { checkAnswersAgainstOpenApi } from "../../test/openapi-answers.ts";
import { SERVER_VERSION } from "../app.ts";
import { AUTHORIZATION_EXPECTATIONS, type ExpectationRow } from "../security/authorization-expectations.ts";
import { buildOpenApiDocument, OPENAPI_PATH, type OpenApiDocument } from "./openapi.ts";

describe("GET /openapi.json: the OpenAPI 3.1 document of every call", () => {
  let t: TestApp;
  let served: OpenApiDocument;

  beforeAll(async () => {
    t = await createTestApp();
    const res = await t.app.inject({ method: "GET", url: OPENAPI_PATH });
    expect(res.statusCode).toBe(200);
    expect(res.headers["content-type"]).toMatch(/^application\/json/);
    served = res.json();
  });
  afterAll(() => t.close());

  it("is what the contract generates, and a valid OpenAPI 3.1 document", async () => {
    expect(served).toEqual(buildOpenApiDocument(SERVER_VERSION));
    expect(served.openapi).toBe("3.1.0");
    const validator = new Validator();
    const outcome = await validator.validate(
      structuredClone(served) as unknown as Parameters<Validator["validate"]>[0],
    );
    expect(outcome.errors ?? [], JSON.stringify(outcome.errors)).toEqual([]);
    expect(outcome.valid).toBe(true);
  });

  it("has one operation per contract endpoint (plus the CSV export, token and revocation), nothing else", () => {
    const expected = [
      ...Object.values(endpoints as Record<string, Endpoint>).map((e) => `${e.method} ${e.path}`),
      `${deviceFlowStatisticsCsv.method} ${deviceFlowStatisticsCsv.path}`,
      `POST ${TOKEN_PATH}`,
      `POST ${REVOCATION_PATH}`,
    ].sort();
    const actual = Object.entries(served.paths)
      .flatMap(([path, item]) => Object.keys(item).map((m) => `${m.toUpperCase()} ${path}`))
      .sort();
    expect(actual).toEqual(expected);
  });

  it("says who may call each operation as the contract declares it, and asks a bearer token unless open", () => {
    for (const [name, ep] of Object.entries(endpoints as Record<string, Endpoint>)) {
      const op = served.paths[ep.path][ep.method.toLowerCase()];
      expect(op.operationId).toBe(name);
      expect(op["x-access"], name).toEqual(ep.access);
      // The integration call is open to users but asks its shared secret header instead.
      const security =
        name === "sendDeviceConfigChangeMessage"
          ? [{ externalCallback: [] }]
          : ep.access.caller === "open"
            ? []
            : [{ bearer: [] }];
      expect(op.security, name).toEqual(security);
      const declared = [...Object.keys(ep.query.shape), ...Object.keys(ep.params?.shape ?? {})].sort();
      expect(op.parameters.map((p) => p.name).sort(), name).toEqual(declared);
    }
  });

  it("declares on each call of the hand-written authorization table the object rule the table's outcomes call for", () => {
    for (const [name, row] of Object.entries(AUTHORIZATION_EXPECTATIONS)) {
      const [method, path] = row.call.split(" ");
      const op = served.paths[path]?.[method.toLowerCase()];
      expect(op, `${name}: ${row.call} is not in the document`).toBeDefined();
      if (!op) continue;
      expect(op.operationId, row.call).toBe(name);
      if (row.anonymous === 401) expect(op.security, name).toEqual([{ bearer: [] }]);
      const role = name in CHECKED_BY_SERVICE ? undefined : roleCalledFor(row);
      expect(op["x-access"].object?.role, `${name}: object rule of ${row.call}`).toBe(role);
    }
  });

  it("describes the hubs' messages and the MQTT payloads", () => {
    expect(Object.keys(served.components.schemas)).toEqual(
      expect.arrayContaining([
        "ErrorEnvelope",
        "DeviceChangeMessage",
        "Message",
        "MqttState",
        "MqttCommand",
        "MqttAck",
      ]),
    );
    expect((served["x-mqtt-topics"] as Array<{ topic: string }>).map((t) => t.topic)).toContain(
      "aq/v1/devices/{mac}/state",
    );
    expect((served["x-signalr-hubs"] as unknown[]).length).toBe(2);
  });
});

/**
 * Calls of the authorization table whose document declares no object rule although the table expects one, and why:
 * the service checks the rule, and the matrix test checks the outcomes. An entry here fails once the rule is declared.
 */
const CHECKED_BY_SERVICE: Readonly<Record<string, string>> = {
  setMessageRead: "an object rule names one id; this call takes a list of message ids and refuses the whole batch",
};

/**
 * The role an operation's object rule must name for the outcomes a row of the authorization table expects: `admin`
 * when a member is refused (403) but the administrator is not; `owner` when everyone but the owner finds the object
 * absent (404); `member` when a stranger finds it absent (404) and a member does not.
 */
function roleCalledFor(row: ExpectationRow): string {
  if (row.member === 403 && row.admin !== 403) return "admin";
  if (row.stranger === 404 && row.member === 404) return "owner";
  if (row.stranger === 404 && row.member !== 404) return "member";
  throw new Error(`${row.call}: no object rule gives these outcomes`);
}

describe("the answer check of the API tests (test/openapi-answers.ts)", () => {
  it("turns an answer outside the document into a 500 that says what differs, and records it", async () => {
    const app = Fastify();
    const check = checkAnswersAgainstOpenApi(app);
    const envelope = (result: unknown) => ({
      success: true,
      result,
      error: null,
      unAuthorizedRequest: false,
      __abp: true,
    });
    app.get(endpoints.getPushSwitch.path, async (request) =>
      (request.query as { bad?: string }).bad ? envelope({ isOpen: "yes" }) : envelope(true),
    );
    app.get(endpoints.getUnitPreferences.path, async (_request, reply) => reply.code(418).send(envelope(null)));
    await app.ready();

    const good = await app.inject({ method: "GET", url: endpoints.getPushSwitch.path });
    expect(good.statusCode, good.body).toBe(200);
    const bad = await app.inject({ method: "GET", url: endpoints.getPushSwitch.path, query: { bad: "1" } });
    expect(bad.statusCode).toBe(500);
    expect(bad.json().error.message).toMatch(/answer does not match \/openapi\.json: .*result/);
    const teapot = await app.inject({ method: "GET", url: endpoints.getUnitPreferences.path });
    expect(teapot.statusCode).toBe(500);
    expect(check.violations).toHaveLength(2);
    expect(check.violations[1]).toMatch(/status 418 is not documented/);
    await app.close();
  });
});
