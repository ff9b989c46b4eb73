import { Ajv2020, type ValidateFunction } from "ajv/dist/2020.js";
import addFormats from "ajv-formats";
import type { FastifyInstance } from "fastify";
import { buildOpenApiDocument, type JsonSchema, type OpenApiDocument } from "../src/http/openapi.ts";

/**
 * Every answer an API test gets is checked against the served OpenAPI document : the status must be
 * one the operation documents, the content type one it lists, and a JSON body must match that answer's schema
 * (Ajv, JSON Schema 2020-12, formats on). A mismatch is recorded and turns the answer into a 500 whose message says
 * what differs, so the test that made the call fails where it reads the answer; `createTestApp`'s close() fails too
 * when any answer did not match. Routes outside the document (hubs, static files, development routes) pass unseen.
 */
export interface AnswerCheck {
  /** Every mismatch so far: "METHOD /path → status: what differs". */
  violations: string[];
}

let shared: { doc: OpenApiDocument; ajv: Ajv2020; compiled: Map<string, ValidateFunction> } | null = null;

function checker() {
  if (!shared) {
    const doc = buildOpenApiDocument("test");
    const ajv = new Ajv2020({ strict: false, allErrors: false });
    addFormats.default(ajv);
    ajv.addSchema({ $id: "openapi", components: doc.components } as JsonSchema);
    shared = { doc, ajv, compiled: new Map() };
  }
  return shared;
}

/** Rewrites `#/components/...` references so they resolve inside the schema registered as "openapi". */
function anchored(schema: JsonSchema): JsonSchema {
  return JSON.parse(JSON.stringify(schema).replaceAll('"#/components/', '"openapi#/components/'));
}

/** The operation of a Fastify route URL (`:id` segments) in the document, if it is there. */
function operationFor(doc: OpenApiDocument, url: string, method: string) {
  return doc.paths[url.replace(/:(\w+)/g, "{$1}")]?.[method.toLowerCase()];
}

/**
 * Installs the answer check on `app` (call before `ready()`). Answers what it records.
 */
export function checkAnswersAgainstOpenApi(app: FastifyInstance): AnswerCheck {
  const result: AnswerCheck = { violations: [] };
  const { doc, ajv, compiled } = checker();
  app.addHook("onSend", async (request, reply, payload) => {
    const url = request.routeOptions.url;
    if (!url) return payload;
    const op = operationFor(doc, url, request.method);
    if (!op) return payload;
    const status = String(reply.statusCode);
    const where = `${request.method} ${url} → ${status}`;
    const fail = (what: string) => {
      result.violations.push(`${where}: ${what}`);
      reply.code(500).header("content-type", "application/json; charset=utf-8");
      return JSON.stringify({
        success: false,
        result: null,
        error: {
          code: "OpenApi",
          message: `answer does not match /openapi.json: ${where}: ${what}`,
          details: null,
          validationErrors: null,
        },
        unAuthorizedRequest: false,
        __abp: true,
      });
    };
    const answer = op.responses[status];
    if (!answer) return fail(`status ${status} is not documented (${Object.keys(op.responses).join(", ")})`);
    if (!answer.content) return payload;
    const type = String(reply.getHeader("content-type") ?? "")
      .split(";")[0]
      .trim();
    const media = answer.content[type];
    if (!media) return fail(`content type "${type}" is not documented (${Object.keys(answer.content).join(", ")})`);
    if (type !== "application/json" || typeof payload !== "string") return payload;
    const key = `${request.method} ${url} ${status}`;
    let validate = compiled.get(key);
    if (!validate) {
      validate = ajv.compile(anchored(media.schema));
      compiled.set(key, validate);
    }
    if (!validate(JSON.parse(payload))) {
      return fail(ajv.errorsText(validate.errors, { dataVar: "answer" }));
    }
    return payload;
  });
  return result;
}
