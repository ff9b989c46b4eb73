import { MQTT_CHANNELS, MQTT_TOPIC_ROOT, type MqttChannel } from "@aquapilot/contract";
import specs from "@asyncapi/specs";
import { Ajv } from "ajv";
import addFormats from "ajv-formats";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestApp, type TestApp } from "../../test/helpers.ts";
import { SERVER_VERSION } from "../app.ts";
import { ASYNCAPI_PATH, type AsyncApiDocument, buildAsyncApiDocument, MQTT_CHANNEL_SPECS } from "./asyncapi.ts";

/** The AsyncAPI 3.0.0 JSON Schema of @asyncapi/specs (draft-07, references inside the file), compiled once. */
function asyncApi300Validator() {
  const ajv = new Ajv({ strict: false, allErrors: true, validateFormats: true });
  addFormats(ajv);
  return ajv.compile(specs.schemasWithoutId["3.0.0"]);
}

describe("GET /asyncapi.json: the AsyncAPI 3.0 document of the device link", () => {
  let t: TestApp;
  let served: AsyncApiDocument;
  const validate = asyncApi300Validator();

  beforeAll(async () => {
    t = await createTestApp();
    const res = await t.app.inject({ method: "GET", url: ASYNCAPI_PATH });
    expect(res.statusCode).toBe(200);
    expect(res.headers["content-type"]).toMatch(/^application\/json/);
    served = res.json();
  });
  afterAll(() => t.close());

  it("is what the contract generates, and valid against the AsyncAPI 3.0.0 schema", () => {
    expect(served).toEqual(buildAsyncApiDocument(SERVER_VERSION));
    expect(served.asyncapi).toBe("3.0.0");
    const valid = validate(served);
    expect(validate.errors ?? [], JSON.stringify(validate.errors?.slice(0, 5))).toEqual([]);
    expect(valid).toBe(true);
  });

  it("the validator refuses a broken document (an operation without its channel, an unknown action)", () => {
    const broken = structuredClone(served) as unknown as { operations: Record<string, Record<string, unknown>> };
    delete broken.operations.sendCmd.channel;
    expect(validate(broken)).toBe(false);
    const wrongAction = structuredClone(served) as unknown as { operations: Record<string, Record<string, unknown>> };
    wrongAction.operations.receiveState.action = "publish";
    expect(validate(wrongAction)).toBe(false);
  });

  it("has every topic of the contract exactly once as a channel, with one operation from the cloud's side", () => {
    const addresses = Object.values(served.channels).map((c) => c.address);
    const topics = (Object.keys(MQTT_CHANNELS) as MqttChannel[]).map(
      (c) => `${MQTT_TOPIC_ROOT}/{mac}/${MQTT_CHANNELS[c]}`,
    );
    for (const topic of topics)
      expect(
        addresses.filter((a) => a === topic),
        topic,
      ).toHaveLength(1);
    expect(addresses.sort()).toEqual([...topics].sort());
    for (const channel of Object.keys(MQTT_CHANNELS) as MqttChannel[]) {
      const ops = Object.values(served.operations).filter((op) => op.channel.$ref === `#/channels/${channel}`);
      expect(
        ops.map((op) => op.action),
        channel,
      ).toEqual([MQTT_CHANNEL_SPECS[channel].direction === "cloud→device" ? "send" : "receive"]);
    }
    expect(served.operations.sendCmd.action).toBe("send");
  });

  it("describes each payload by the contract's schema, as /openapi.json names it", () => {
    const schemas = served.components.schemas as Record<string, { properties?: Record<string, unknown> }>;
    expect(Object.keys(schemas).sort()).toEqual(
      ["MqttAck", "MqttCommand", "MqttEvent", "MqttReceipt", "MqttState", "MqttStatus", "MqttTelemetry"].sort(),
    );
    expect(Object.keys(schemas.MqttState.properties ?? {})).toEqual(expect.arrayContaining(["v", "ts", "station"]));
    expect(schemas.MqttCommand.properties?.name).toMatchObject({ enum: expect.arrayContaining(["sync-time", "ota"]) });
  });
});
