import {
  DEVICE_COMMANDS,
  MQTT_CHANNELS,
  MQTT_MAX_PACKET_BYTES,
  MQTT_PROTOCOL_VERSION,
  MQTT_TOPIC_ROOT,
  type MqttChannel,
  ZMqttAck,
  ZMqttCommand,
  ZMqttEvent,
  ZMqttReceipt,
  ZMqttState,
  ZMqttStatus,
  ZMqttTelemetry,
} from "@aquapilot/contract";
import type { FastifyInstance } from "fastify";
import { z } from "zod";

// The AsyncAPI 3.0 document of the device link (docs/device-protocol.md §1–§3), generated from the
// contract's topics and payload schemas (packages/contract/src/mqtt.ts) at run time. Served at GET /asyncapi.json.

/** Path of the served document. */
export const ASYNCAPI_PATH = "/asyncapi.json";

/** Who publishes a channel's messages, as the cloud sees it. */
export type MqttDirection = "device→cloud" | "cloud→device";

/** One channel of a device's topic tree: its payload schema, publisher, QoS and retain flag, and what it carries. */
export interface MqttChannelSpec {
  schema: z.ZodType;
  /** Name of the payload schema under `components` (the same as in /openapi.json). */
  schemaName: string;
  direction: MqttDirection;
  qos: 0 | 1 | 2;
  retained: boolean;
  summary: string;
}

/**
 * Every channel of a device's topic tree (docs/device-protocol.md §3). A `Record` of the contract's
 * {@link MqttChannel}: a channel added to MQTT_CHANNELS does not compile until it is described here.
 */
export const MQTT_CHANNEL_SPECS: Readonly<Record<MqttChannel, MqttChannelSpec>> = {
  status: {
    schema: ZMqttStatus,
    schemaName: "MqttStatus",
    direction: "device→cloud",
    qos: 1,
    retained: true,
    summary: "Online flag; the connection's will message publishes `online: false` (§3.1).",
  },
  state: {
    schema: ZMqttState,
    schemaName: "MqttState",
    direction: "device→cloud",
    qos: 1,
    retained: true,
    summary: "The reported state: station, counters, settings (§3.2). Units L, L/min, s, kg.",
  },
  telemetry: {
    schema: ZMqttTelemetry,
    schemaName: "MqttTelemetry",
    direction: "device→cloud",
    qos: 1,
    retained: false,
    summary: "Metered water and flow (§3.3). Units L, L/min.",
  },
  event: {
    schema: ZMqttEvent,
    schemaName: "MqttEvent",
    direction: "device→cloud",
    qos: 1,
    retained: false,
    summary: "Alarms and cycle events, each with an id chosen by the device (§3.4).",
  },
  cmd: {
    schema: ZMqttCommand,
    schemaName: "MqttCommand",
    direction: "cloud→device",
    qos: 1,
    retained: false,
    summary: `A command with an id; a device applies an id at most once (§3.5). Names: ${DEVICE_COMMANDS.join(", ")}.`,
  },
  ack: {
    schema: ZMqttAck,
    schemaName: "MqttAck",
    direction: "device→cloud",
    qos: 1,
    retained: false,
    summary: "The outcome of a command, by its id (§3.5).",
  },
  receipt: {
    schema: ZMqttReceipt,
    schemaName: "MqttReceipt",
    direction: "cloud→device",
    qos: 1,
    retained: false,
    summary: "The report ids of telemetry and events the cloud has stored; the device forgets them (§3.6).",
  },
};

/** The address of a channel with the MAC as the parameter `{mac}`, e.g. `aq/v1/devices/{mac}/state`. */
export function channelAddress(channel: MqttChannel): string {
  return `${MQTT_TOPIC_ROOT}/{mac}/${MQTT_CHANNELS[channel]}`;
}

/** The AsyncAPI 3.0 document as a plain JSON object (the parts this server writes). */
export interface AsyncApiDocument {
  asyncapi: "3.0.0";
  info: { title: string; version: string; description: string };
  defaultContentType: string;
  servers: Record<string, Record<string, unknown>>;
  channels: Record<string, { address: string; messages: Record<string, unknown>; [key: string]: unknown }>;
  operations: Record<string, { action: "send" | "receive"; channel: { $ref: string }; [key: string]: unknown }>;
  components: Record<string, Record<string, unknown>>;
}

/**
 * Builds the AsyncAPI 3.0 document of the device link from the contract: one channel per entry of MQTT_CHANNELS
 * (address `aq/v1/devices/{mac}/<leaf>`, parameter `mac`), one message per channel whose payload is the channel's zod
 * schema as JSON Schema draft-07 (AsyncAPI's schema dialect; what a receiver accepts, `io: "input"`), and one
 * operation per channel from the cloud's side (`receive` what devices publish, `send` commands), with the MQTT
 * bindings (QoS, retain) and the broker's connection rules (MQTT 3.1.1, clean session, keep-alive 30 s, the will
 * message on `status`, username = MAC / password = the provisioning secret).
 * @param version the document's `info.version` (the server's package version).
 */
export function buildAsyncApiDocument(version: string): AsyncApiDocument {
  const channels: AsyncApiDocument["channels"] = {};
  const operations: AsyncApiDocument["operations"] = {};
  const messages: Record<string, unknown> = {};
  const schemas: Record<string, unknown> = {};
  for (const [channel, spec] of Object.entries(MQTT_CHANNEL_SPECS) as Array<[MqttChannel, MqttChannelSpec]>) {
    const payload = z.toJSONSchema(spec.schema, { target: "draft-7", io: "input", unrepresentable: "any" });
    delete (payload as { $schema?: unknown }).$schema;
    schemas[spec.schemaName] = payload;
    messages[channel] = {
      name: spec.schemaName,
      title: `${channel} (${spec.direction})`,
      summary: spec.summary,
      contentType: "application/json",
      payload: { $ref: `#/components/schemas/${spec.schemaName}` },
    };
    channels[channel] = {
      address: channelAddress(channel),
      title: channel,
      description: `${spec.summary} Published by ${spec.direction === "device→cloud" ? "the device" : "the cloud gateway"}, QoS ${spec.qos}${spec.retained ? ", retained" : ""}.`,
      parameters: { mac: { $ref: "#/components/parameters/mac" } },
      messages: { [channel]: { $ref: `#/components/messages/${channel}` } },
    };
    const action = spec.direction === "device→cloud" ? "receive" : "send";
    operations[`${action}${channel[0].toUpperCase()}${channel.slice(1)}`] = {
      action,
      channel: { $ref: `#/channels/${channel}` },
      summary:
        action === "receive"
          ? `The gateway subscribes to ${MQTT_TOPIC_ROOT}/+/${MQTT_CHANNELS[channel]} (QoS ${spec.qos}).`
          : `The gateway publishes to one device's ${MQTT_CHANNELS[channel]} topic (QoS ${spec.qos}).`,
      messages: [{ $ref: `#/channels/${channel}/messages/${channel}` }],
      bindings: { mqtt: { qos: spec.qos, retain: spec.retained, bindingVersion: "0.2.0" } },
    };
  }
  return {
    asyncapi: "3.0.0",
    info: {
      title: "AquaPilot device link (MQTT)",
      version,
      description:
        `Device protocol v${MQTT_PROTOCOL_VERSION} (docs/device-protocol.md), from the cloud's side: every device owns ` +
        `the topic tree \`${MQTT_TOPIC_ROOT}/{mac}/…\` and may publish and subscribe only inside it. Payloads are ` +
        `UTF-8 JSON with \`v: ${MQTT_PROTOCOL_VERSION}\`; a packet has at most ${MQTT_MAX_PACKET_BYTES} bytes of ` +
        "remaining length. Generated from the contract (packages/contract/src/mqtt.ts).",
    },
    defaultContentType: "application/json",
    servers: {
      broker: {
        host: "{host}:{port}",
        protocol: "secure-mqtt",
        protocolVersion: "3.1.1",
        description:
          "MQTT over TLS: the embedded broker (MQTT_HOST:MQTT_TLS_PORT) or an external one (MQTT_URL); activation " +
          "tells devices where (MQTT_PUBLIC_URL). Devices pin the CA that issued the broker's certificate " +
          "(docs/device-protocol.md §1.1); plain MQTT on MQTT_PORT exists in development only.",
        variables: {
          host: { default: "localhost", description: "The broker's host name" },
          port: { default: "8883", description: "8883 MQTT over TLS (1883 plain MQTT, development only)" },
        },
        security: [{ $ref: "#/components/securitySchemes/deviceCredentials" }],
        bindings: {
          mqtt: {
            cleanSession: true,
            keepAlive: 30,
            lastWill: {
              topic: channelAddress("status"),
              qos: MQTT_CHANNEL_SPECS.status.qos,
              message: JSON.stringify({ v: MQTT_PROTOCOL_VERSION, online: false }),
              retain: true,
            },
            bindingVersion: "0.2.0",
          },
        },
      },
    },
    channels,
    operations,
    components: {
      schemas,
      messages,
      parameters: {
        mac: { description: "The device's MAC: 12 upper-case hex digits, no separators (also its client id)." },
      },
      securitySchemes: {
        deviceCredentials: {
          type: "userPassword",
          description:
            "Username: the device's MAC; password: its provisioning secret (docs/device-protocol.md §2). The client " +
            "id must be the MAC.",
        },
      },
    },
  };
}

/**
 * Serves the document at GET {@link ASYNCAPI_PATH} (open), built on the first request and kept, as /openapi.json.
 */
export function registerAsyncApi(app: FastifyInstance, version: string): void {
  let text: string | null = null;
  app.get(ASYNCAPI_PATH, async (_request, reply) => {
    text ??= JSON.stringify(buildAsyncApiDocument(version));
    return reply.type("application/json; charset=utf-8").send(text);
  });
}
