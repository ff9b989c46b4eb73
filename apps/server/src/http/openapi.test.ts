import { deviceFlowStatisticsCsv, type Endpoint, endpoints, REVOCATION_PATH, TOKEN_PATH } from "@aquapilot/contract";
import { Validator } from "@seriousme/openapi-schema-validator";
import Fastify from "fastify";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestApp, type TestApp } from "../../test/helpers.ts";
import { checkAnswersAgainstOpenApi } from "../../test/openapi-answers.ts";
import { SERVER_VERSION } from "../app.ts";
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
