import {
  type Access,
  abpEnvelope,
  accountEndpoints,
  afterSaleEndpoints,
  articleEndpoints,
  deviceControlEndpoints,
  deviceEndpoints,
  deviceFlowStatisticsCsv,
  type Endpoint,
  familyEndpoints,
  faultEndpoints,
  fileEndpoints,
  HUB_METHODS,
  HUB_PATHS,
  locationEndpoints,
  type MqttChannel,
  messageEndpoints,
  preferenceEndpoints,
  REVOCATION_PATH,
  setupTicketEndpoints,
  TOKEN_PATH,
  ZAbpError,
  ZDeviceChangeMessage,
  ZMessage,
  ZRevocationRequest,
  ZTokenRequest,
  ZTokenResponse,
} from "@aquapilot/contract";
import type { FastifyInstance } from "fastify";
import { z } from "zod";
import { channelAddress, MQTT_CHANNEL_SPECS } from "./asyncapi.ts";

// The OpenAPI 3.1 document of the cloud API, generated from the contract at run time: nothing here
// is written by hand but the titles. Served at GET /openapi.json; the API tests validate every answer against it.

/** A JSON Schema (draft 2020-12, OpenAPI 3.1's dialect) as zod writes it. */
export type JsonSchema = Record<string, unknown>;

/** The parts of an OpenAPI 3.1 document this server writes (a plain JSON object). */
export interface OpenApiDocument {
  openapi: "3.1.0";
  info: { title: string; version: string; description: string };
  servers: Array<{ url: string }>;
  tags: Array<{ name: string; description: string }>;
  paths: Record<string, Record<string, OpenApiOperation>>;
  components: { securitySchemes: Record<string, unknown>; schemas: Record<string, JsonSchema> };
  [extension: `x-${string}`]: unknown;
}

/** One operation of the document, with the contract's name and access declaration as extensions. */
export interface OpenApiOperation {
  operationId: string;
  summary: string;
  tags: string[];
  security: Array<Record<string, string[]>>;
  parameters: Array<{ name: string; in: "query" | "path"; required: boolean; schema: JsonSchema }>;
  requestBody?: { required: boolean; content: Record<string, { schema: JsonSchema }> };
  responses: Record<string, { description: string; content?: Record<string, { schema: JsonSchema }> }>;
  /** Who may call it (the contract's `access`, the one declaration the route registration enforces). */
  "x-access": Access;
}

/** Path of the served document. */
export const OPENAPI_PATH = "/openapi.json";

/** The contract's areas, in the order of spec §7, as the document's tags. */
const AREAS: Array<[string, string, Record<string, Endpoint>]> = [
  ["account", "Accounts, profile and configuration (spec §7 basic-data, abp)", accountEndpoints],
  ["family", "Households, members and share codes (spec §6, §7 family, family-device, family-user)", familyEndpoints],
  ["location", "Region look-up (spec §7 travel-location-lookup)", locationEndpoints],
  ["device", "Devices, binding, models and the external callback (spec §7 device, device-model)", deviceEndpoints],
  ["device-control", "Commands, firmware, salt and statistics (spec §7 device-control)", deviceControlEndpoints],
  ["message", "Messages and push (spec §7 push-service)", messageEndpoints],
  ["after-sale", "After-sales requests (spec §7 /api/run-lucky/device/app/post-sale)", afterSaleEndpoints],
  ["article", "Articles (spec §7 article)", articleEndpoints],
  ["file", "Upload (spec §7 file)", fileEndpoints],
  ["preferences", "Settings of the owner (spec §7 appuser_setting)", preferenceEndpoints],
  ["fault", "Faults (extension)", faultEndpoints],
  [
    "setup-ticket",
    "Setup tickets: which module network setup just activated (docs/device-protocol.md §13.4)",
    setupTicketEndpoints,
  ],
];

/** Calls whose body is a multipart form with one file, not JSON. */
const MULTIPART = new Set(["uploadFile", "uploadAvatar"]);

/** The error answers every call may give; each is the ABP envelope with `error` set (spec §8). */
const ERROR_ANSWERS: Record<string, string> = {
  "400": "Invalid input, or a domain rule refused it (message in the caller's language)",
  "401": "No or an invalid bearer token (unAuthorizedRequest true)",
  "403": "The caller is in the household but not its administrator, or lacks the permission",
  "404": "Unknown object, or one the caller has no part in (another household's or user's: the same answer)",
  "409": "Conflict with the current state (device offline, request handled, administrator leaving)",
  "413": "Body too large",
  "414": "URL too long",
  "415": "Unsupported content type",
  "429": "Rate limited (Retry-After says when to try again)",
  "500": "Internal error, or a delivery that failed (nothing was half-written; the message says whether to retry)",
};

/** The integration call authenticated by a shared secret header instead of a user token. */
const EXTERNAL_CALLBACK = "sendDeviceConfigChangeMessage";

/**
 * A zod schema as JSON Schema 2020-12: `io` "input" for what a client sends, "output" for what the server answers.
 * Schemas zod cannot express (transforms, custom refinements) become `{}` (anything) rather than failing.
 */
function toSchema(schema: z.ZodType, io: "input" | "output"): JsonSchema {
  const json = z.toJSONSchema(schema, { target: "draft-2020-12", io, unrepresentable: "any" }) as JsonSchema;
  delete json.$schema;
  return json;
}

/** The declared query or path parameters of an endpoint, each with its schema and whether it is required. */
function parametersOf(ep: Endpoint): OpenApiOperation["parameters"] {
  const out: OpenApiOperation["parameters"] = [];
  for (const [where, schema] of [
    ["path", ep.params],
    ["query", ep.query],
  ] as const) {
    if (!schema) continue;
    for (const [name, field] of Object.entries(schema.shape as Record<string, z.ZodType>)) {
      out.push({
        name,
        in: where,
        required: where === "path" || !field.safeParse(undefined).success,
        schema: toSchema(field, "input"),
      });
    }
  }
  return out;
}

/** One operation of a contract endpoint: parameters, body, the enveloped answer and the error answers. */
function operationOf(
  name: string,
  ep: Endpoint,
  tag: string,
  answer?: OpenApiOperation["responses"],
): OpenApiOperation {
  const open = ep.access.caller === "open";
  const secretHeader = name === EXTERNAL_CALLBACK;
  const requestBody: OpenApiOperation["requestBody"] = ep.body
    ? MULTIPART.has(name)
      ? {
          required: true,
          content: {
            "multipart/form-data": {
              schema: {
                type: "object",
                properties: { file: { type: "string", contentMediaType: "application/octet-stream" } },
                required: ["file"],
              },
            },
          },
        }
      : {
          required: !ep.body.safeParse(undefined).success,
          content: { "application/json": { schema: toSchema(ep.body, "input") } },
        }
    : undefined;
  const errors = Object.fromEntries(
    Object.entries(ERROR_ANSWERS)
      .filter(([status]) => !(open && !secretHeader && status === "401"))
      .map(([status, description]) => [
        status,
        { description, content: { "application/json": { schema: { $ref: "#/components/schemas/ErrorEnvelope" } } } },
      ]),
  );
  return {
    operationId: name,
    summary: ep.summary,
    tags: [tag],
    security: secretHeader ? [{ externalCallback: [] }] : open ? [] : [{ bearer: [] }],
    parameters: parametersOf(ep),
    ...(requestBody ? { requestBody } : {}),
    responses: {
      ...(answer ?? {
        "200": {
          description: "The ABP envelope with `result` (spec §7)",
          content: { "application/json": { schema: toSchema(abpEnvelope(ep.result), "output") } },
        },
      }),
      ...errors,
    },
    "x-access": ep.access,
  };
}

/**
 * Builds the OpenAPI 3.1 document of every call of spec §7 from the contract: each endpoint of
 * `endpoints` with its verbatim path, parameters, JSON body (multipart for uploads), the ABP envelope around its
 * result, the error envelope, its bearer requirement and `x-access` (who may call it); the streamed CSV export; the
 * OAuth token and revocation calls (form bodies, not enveloped). The SignalR hubs' messages and the MQTT payloads
 * are described under `components.schemas` and listed in `x-signalr-hubs` and `x-mqtt-topics` (the device link in
 * full: http/asyncapi.ts, GET /asyncapi.json).
 * @param version the document's `info.version` (the server's package version).
 */
export function buildOpenApiDocument(version: string): OpenApiDocument {
  const paths: OpenApiDocument["paths"] = {};
  const add = (path: string, method: string, op: OpenApiOperation) => {
    paths[path] ??= {};
    paths[path][method.toLowerCase()] = op;
  };
  for (const [tag, , table] of AREAS) {
    for (const [name, ep] of Object.entries(table)) add(ep.path, ep.method, operationOf(name, ep, tag));
  }
  add(
    deviceFlowStatisticsCsv.path,
    deviceFlowStatisticsCsv.method,
    operationOf("deviceFlowStatisticsCsv", deviceFlowStatisticsCsv, "device-control", {
      "200": {
        description: "CSV rows, streamed; the header X-Total-Rows announces how many (not enveloped)",
        content: { "text/csv": { schema: { type: "string" } } },
      },
    }),
  );
  // The OAuth calls answer their own errors (RFC 6749 §5.2); what the edge refuses before them (size, type, URL)
  // comes in the ABP error envelope like everywhere else.
  const oauthError = {
    description: "OAuth error (RFC 6749 §5.2), or the ABP error envelope for a refusal at the edge",
    content: {
      "application/json": {
        schema: {
          anyOf: [
            {
              type: "object",
              properties: { error: { type: "string" }, error_description: { type: "string" } },
              required: ["error"],
            },
            { $ref: "#/components/schemas/ErrorEnvelope" },
          ],
        },
      },
    },
  };
  const oauthErrors = Object.fromEntries(
    ["400", "401", "413", "414", "415", "429", "500"].map((status) => [status, oauthError]),
  );
  paths[TOKEN_PATH] = {
    post: {
      operationId: "connectToken",
      summary: "OAuth 2.0 token: password grant or refresh (spec §7; not enveloped)",
      tags: ["account"],
      security: [],
      parameters: [],
      requestBody: {
        required: true,
        content: { "application/x-www-form-urlencoded": { schema: toSchema(ZTokenRequest, "input") } },
      },
      responses: {
        "200": {
          description: "Tokens",
          content: { "application/json": { schema: toSchema(ZTokenResponse, "output") } },
        },
        ...oauthErrors,
      },
      "x-access": { caller: "open" },
    },
  };
  paths[REVOCATION_PATH] = {
    post: {
      operationId: "connectRevocation",
      summary: "OAuth 2.0 token revocation (RFC 7009): answers 200 with an empty body whatever the token",
      tags: ["account"],
      security: [],
      parameters: [],
      requestBody: {
        required: true,
        content: { "application/x-www-form-urlencoded": { schema: toSchema(ZRevocationRequest, "input") } },
      },
      responses: { "200": { description: "Empty body" }, ...oauthErrors },
      "x-access": { caller: "open" },
    },
  };
  const schemas: Record<string, JsonSchema> = {
    ErrorEnvelope: toSchema(abpEnvelope(z.null()).extend({ error: ZAbpError }), "output"),
    DeviceChangeMessage: toSchema(ZDeviceChangeMessage, "output"),
    Message: toSchema(ZMessage, "output"),
    ...Object.fromEntries(
      Object.values(MQTT_CHANNEL_SPECS).map((spec) => [spec.schemaName, toSchema(spec.schema, "output")]),
    ),
  };
  return {
    openapi: "3.1.0",
    info: {
      title: "AquaPilot cloud API",
      version,
      description:
        "Every call of the water softener app (spec §7), in the ABP envelope. Generated from the contract " +
        "(packages/contract); `x-access` on each operation says who may call it. Real-time: two SignalR hubs " +
        "(`x-signalr-hubs`); devices: MQTT (`x-mqtt-topics`; AsyncAPI 3.0 at /asyncapi.json).",
    },
    servers: [{ url: "/" }],
    tags: AREAS.map(([name, description]) => ({ name, description })),
    paths,
    components: {
      securitySchemes: {
        bearer: {
          type: "oauth2",
          description: 'Bearer access token from /connect/token (spec §7 "Token sent as bearer header")',
          flows: { password: { tokenUrl: TOKEN_PATH, refreshUrl: TOKEN_PATH, scopes: {} } },
        },
        externalCallback: {
          type: "apiKey",
          in: "header",
          name: "x-external-callback-secret",
          description: "Shared secret of the integration call (EXTERNAL_CALLBACK_SECRET)",
        },
      },
      schemas,
    },
    "x-signalr-hubs": [
      {
        path: HUB_PATHS.deviceChange,
        protocol: "SignalR JSON hub protocol (negotiate, WebSockets), access token as query `access_token`",
        serverToClient: {
          [HUB_METHODS.deviceChange]: {
            description: "A device's state changed; the one argument is this object as a JSON string",
            $ref: "#/components/schemas/DeviceChangeMessage",
          },
        },
      },
      {
        path: HUB_PATHS.message,
        protocol: "SignalR JSON hub protocol (negotiate, WebSockets), access token as query `access_token`",
        serverToClient: { [HUB_METHODS.receiveMessage]: { $ref: "#/components/schemas/Message" } },
      },
    ],
    // The device link in full (channels, operations, bindings) is the AsyncAPI document at /asyncapi.json.
    "x-mqtt-topics": (Object.keys(MQTT_CHANNEL_SPECS) as MqttChannel[]).map((channel) => {
      const { direction, qos, retained, schemaName } = MQTT_CHANNEL_SPECS[channel];
      return {
        topic: channelAddress(channel),
        direction,
        qos,
        ...(retained ? { retained } : {}),
        payload: { $ref: `#/components/schemas/${schemaName}` },
      };
    }),
  };
}

/**
 * Serves the document at GET {@link OPENAPI_PATH} (open). It is built on the first request and kept: converting
 * every schema takes a few hundred milliseconds, which start-up does not pay for a call few clients make.
 */
export function registerOpenApi(app: FastifyInstance, version: string): void {
  let text: string | null = null;
  app.get(OPENAPI_PATH, async (_request, reply) => {
    text ??= JSON.stringify(buildOpenApiDocument(version));
    return reply.type("application/json; charset=utf-8").send(text);
  });
}
