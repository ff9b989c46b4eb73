import {
  ACTIVATION_PATHS,
  abpEnvelope,
  afterSaleEndpoints,
  deviceFlowStatisticsCsv,
  type Endpoint,
  endpoints,
  LANGUAGES,
  noQuery,
  OPEN,
  REVOCATION_PATH,
  TOKEN_PATH,
  ZActivationBegin,
  ZActivationComplete,
  ZActivationError,
  ZRevocationRequest,
  ZTokenError,
  ZTokenRequest,
} from "@aquapilot/contract";
import type { InjectOptions, LightMyRequestResponse } from "fastify";
import { z } from "zod";

/**
 * Hostile requests generated from the contract (the API fuzz suite): every endpoint of `endpoints` (and the
 * hand-registered calls: OAuth token and revocation, the CSV export, device activation) gets a valid request built
 * from its schemas, then at least 30 hostile variants — each field replaced by hostile values (control characters,
 * broken Unicode, huge text, traversal, numbers as text, wrong JSON types), extra and duplicate parameters, broken or
 * mistyped bodies, oversized URLs and bodies, odd headers. A new endpoint is fuzzed with no extra code.
 */

/** What an answer must look like: the ABP envelope, or the route's own documented shape. */
export type AnswerKind = "envelope" | "oauth" | "activation" | "csv";

/** A route to fuzz: a contract endpoint, or a hand-registered call described the same way. */
export interface FuzzRoute {
  name: string;
  endpoint: Endpoint;
  kind: AnswerKind;
  /** The body is sent form-urlencoded (OAuth calls). */
  form?: boolean;
  /** The body is multipart with one file part (uploads). */
  upload?: boolean;
}

/** Real ids of the owner's data, so valid variants reach the services and the database. */
export interface FuzzIds {
  familyId: string;
  deviceId: string;
  mac: string;
  memberId: string;
  userId: string;
  afterSaleId: string;
  messageId: string;
  articleId: string;
}

/** One request to send. */
export interface FuzzCase {
  route: string;
  variant: string;
  kind: AnswerKind;
  request: InjectOptions;
}

/** Every route the fuzzer knows: the contract's endpoints and the hand-registered calls. */
export function fuzzRoutes(): FuzzRoute[] {
  const routes: FuzzRoute[] = Object.entries(endpoints).map(([name, endpoint]) => ({
    name,
    endpoint: endpoint as Endpoint,
    kind: "envelope",
    upload: name === "uploadFile" || name === "uploadAvatar",
  }));
  const extra = (name: string, path: string, body: z.ZodType, kind: AnswerKind, form = false): FuzzRoute => ({
    name,
    endpoint: { method: "POST", path, query: noQuery, body, result: z.unknown(), access: OPEN, summary: name },
    kind,
    form,
  });
  routes.push(
    { name: "deviceFlowStatisticsCsv", endpoint: deviceFlowStatisticsCsv as Endpoint, kind: "csv" },
    extra("connectToken", TOKEN_PATH, ZTokenRequest, "oauth", true),
    extra("connectRevocation", REVOCATION_PATH, ZRevocationRequest, "oauth", true),
    extra("activationBegin", ACTIVATION_PATHS.begin, ZActivationBegin, "activation"),
    extra("activationComplete", ACTIVATION_PATHS.complete, ZActivationComplete, "activation"),
  );
  return routes;
}

// ---------- hostile values ----------

const deep = (levels: number): unknown => {
  let v: unknown = "bottom";
  for (let i = 0; i < levels; i++) v = { d: v };
  return v;
};

/** Hostile texts: each replaces a field's value (in a query, a path, a JSON or a form body). */
export const HOSTILE_TEXT: ReadonlyArray<readonly [string, string]> = [
  ["nul", "a\u0000b"],
  ["nul-only", "\u0000"],
  ["c0", "a\u0001\u0008\u001b\u001fb"],
  ["del-c1", "a\u007f\u0085\u009fb"],
  ["crlf", "a\r\nSet-Cookie: x=1"],
  ["tab", "a\tb"],
  ["lone-high-surrogate", "a\ud800b"],
  ["lone-low-surrogate", "\udc00"],
  ["rtl-override", "\u202eevil\u202c.png"],
  ["zero-width", "a\u200b\u200d\ufeffb"],
  ["emoji", "🚰💧🧂👨‍👩‍👧"],
  ["combining", "e\u0301\u0301\u0301\u0301"],
  ["fullwidth-digits", "１２３４５６"],
  ["noncharacter", "\uffff\ufffe"],
  ["long", "y".repeat(2_000)],
  ["huge", "x".repeat(70_000)],
  ["traversal", "../../../../etc/passwd"],
  ["traversal-encoded", "..%2f..%2f..%2fetc%2fpasswd"],
  ["windows-traversal", "..\\..\\windows\\win.ini"],
  ["url-scheme", "javascript:alert(1)"],
  ["sql", "' OR '1'='1'; DROP TABLE users; --"],
  ["html", "<img src=x onerror=alert(1)>"],
  ["template", "{{7*7}}$\u007b7*7}%s%n"],
  ["empty", ""],
  ["spaces", "   "],
  ["nan", "NaN"],
  ["infinity", "Infinity"],
  ["neg-infinity", "-Infinity"],
  ["huge-number", "1e308"],
  ["overflow-number", "1e400"],
  ["unsafe-int", "9007199254740993"],
  ["negative", "-1"],
  ["hex", "0x1F"],
  ["bad-date", "9999-99-99T99:99:99Z"],
  ["year-zero", "0000-00-00"],
  ["proto", "__proto__"],
];

/** Hostile JSON values of other types: they replace a field in a JSON body (in a query they become text or repeats). */
export const HOSTILE_JSON: ReadonlyArray<readonly [string, unknown]> = [
  ["json-true", true],
  ["json-number", 123456789],
  ["json-negative-zero", -0],
  ["json-float", 1.5e300],
  ["json-null", null],
  ["json-array", ["a", "b"]],
  ["json-object", { a: 1, __proto__x: { admin: true } }],
  ["json-nested", deep(60)],
  ["json-big-array", Array.from({ length: 5_000 }, (_, i) => i)],
];

/** The values every single field gets (the others go round the fields so each is sent at least once per route). */
const PER_FIELD = new Set(["nul", "lone-high-surrogate", "huge", "json-array"]);

// ---------- valid values from the schemas ----------

type Def = Record<string, unknown> & { type: string };
const defOf = (s: unknown): Def => (s as { _zod: { def: Def } })._zod.def;
const bagOf = (s: unknown) =>
  (s as { _zod: { bag?: { minimum?: number; maximum?: number; format?: string } } })._zod.bag ?? {};

/** The after-sales paths (their ids are after-sales requests), taken from the contract. */
const AFTER_SALE_PATHS: ReadonlySet<string> = new Set(Object.values(afterSaleEndpoints).map((e) => e.path));

function idFor(route: FuzzRoute, ids: FuzzIds): string {
  const p = route.endpoint.path;
  if (p.includes("/message/")) return ids.messageId;
  if (p.includes("/family-user/")) return ids.memberId;
  if (p.includes("/family/")) return ids.familyId;
  if (AFTER_SALE_PATHS.has(p)) return ids.afterSaleId;
  if (p.includes("/article/")) return ids.articleId;
  return ids.deviceId;
}

function sampleString(schema: unknown, field: string, route: FuzzRoute, ids: FuzzIds): string {
  const byField: Record<string, () => string> = {
    id: () => idFor(route, ids),
    familyId: () => ids.familyId,
    deviceId: () => ids.deviceId,
    deviceIds: () => ids.deviceId,
    familyUserId: () => ids.memberId,
    userId: () => ids.userId,
    ids: () => ids.messageId,
    mac: () => ids.mac,
    email: () => "fuzz@example.com",
    account: () => "fuzz@example.com",
    username: () => "fuzz@example.com",
    phoneNumber: () => "13800138000",
    countryCode: () => "86",
    code: () => (route.name === "bindDevice" ? `${ids.mac}:fuzz-secret` : "123456"),
    password: () => "fuzz-pass-1",
    newPassword: () => "fuzz-pass-2",
    currentPassword: () => "fuzz-pass-1",
    confirmPassword: () => "fuzz-pass-1",
    date: () => "2026-01-01",
    from: () => "2026-01-01",
    to: () => "2026-01-02",
    time: () => "2026-01-01T00:00:00Z",
    ts: () => "2026-01-01T00:00:00Z",
    image: () => "/device-images/aq-s25-front.svg",
    avatar: () => "/uploads/avatars/none.png",
    photos: () => "/uploads/files/none.png",
    endpoint: () => "https://push.example.com/fuzz",
    keyword: () => "salt",
    deviceModel: () => "AQ-S25",
    ipAddress: () => "8.8.8.8",
    name: () => "Fuzz",
    userName: () => "fuzzer",
    description: () => "The softener makes a noise at night.",
    version: () => "9.9.9",
    nonce: () => "n".repeat(32),
    secret: () => "s".repeat(32),
    token: () => "t".repeat(43),
    refresh_token: () => "t".repeat(43),
  };
  const known = byField[field];
  if (known) return known();
  const bag = bagOf(schema);
  if (bag.format === "email") return "fuzz@example.com";
  if (bag.format === "url") return "https://example.com/fuzz";
  if (bag.format === "datetime") return "2026-01-01T00:00:00Z";
  if (bag.format === "date") return "2026-01-01";
  return "a".repeat(Math.max(1, Math.min(bag.minimum ?? 1, 16)));
}

/**
 * A value the schema accepts (as far as names tell: ids, e-mails, dates come from `ids` and a table by field name),
 * so that a variant changing one field reaches the service with the others valid.
 */
export function sampleValue(schema: unknown, field: string, route: FuzzRoute, ids: FuzzIds): unknown {
  const def = defOf(schema);
  switch (def.type) {
    case "optional":
    case "nullable":
    case "default":
    case "prefault":
    case "nonoptional":
    case "readonly":
    case "catch":
      return sampleValue(def.innerType, field, route, ids);
    case "pipe":
      return defOf(def.in).type === "transform"
        ? sampleValue(def.out, field, route, ids)
        : sampleValue(def.in, field, route, ids);
    case "object":
      return Object.fromEntries(
        Object.entries(def.shape as Record<string, unknown>).map(([k, v]) => [k, sampleValue(v, k, route, ids)]),
      );
    case "union":
      return sampleValue((def.options as unknown[])[0], field, route, ids);
    case "array":
      return [sampleValue(def.element, field, route, ids)];
    case "record":
      return { saltAddition: sampleValue(def.valueType, "value", route, ids) };
    case "enum":
      return Object.values(def.entries as Record<string, unknown>)[0];
    case "literal":
      return (def.values as unknown[])[0];
    case "boolean":
      return true;
    case "number": {
      const { minimum = 0, maximum = 1000 } = bagOf(schema);
      return Math.min(Math.max(1, Math.ceil(minimum)), maximum);
    }
    case "string":
      return sampleString(schema, field, route, ids);
    default:
      return "x";
  }
}

/** The object shape of a request part, unwrapped (query, params, a body object; a union body uses its first option). */
function shapeOf(schema: unknown): Record<string, unknown> | null {
  if (!schema) return null;
  const def = defOf(schema);
  if (def.type === "object") return def.shape as Record<string, unknown>;
  if (def.type === "union") return shapeOf((def.options as unknown[])[0]);
  if (def.type === "optional" || def.type === "nullable" || def.type === "default") return shapeOf(def.innerType);
  return null;
}

// ---------- encoding ----------

/** Percent-encodes text as a browser would, and a lone surrogate as its WTF-8 bytes (not valid UTF-8). */
export function encodeText(text: string): string {
  let out = "";
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    const isHigh = c >= 0xd800 && c <= 0xdbff;
    const isLow = c >= 0xdc00 && c <= 0xdfff;
    const next = text.charCodeAt(i + 1);
    if (isHigh && next >= 0xdc00 && next <= 0xdfff) {
      out += encodeURIComponent(text.slice(i, i + 2));
      i++;
    } else if (isHigh || isLow) {
      out += [0xe0 | (c >> 12), 0x80 | ((c >> 6) & 0x3f), 0x80 | (c & 0x3f)]
        .map((b) => `%${b.toString(16).toUpperCase()}`)
        .join("");
    } else out += encodeURIComponent(text[i]);
  }
  return out;
}

/** Query text for values of any JSON type: arrays repeat the key, objects become `key[sub]`, null an empty value. */
export function queryString(values: Record<string, unknown>): string {
  const parts: string[] = [];
  const add = (key: string, v: unknown) => {
    if (v === undefined) return;
    if (Array.isArray(v)) for (const item of v.slice(0, 50)) add(key, item);
    else if (v !== null && typeof v === "object")
      for (const [k, sub] of Object.entries(v).slice(0, 20)) add(`${key}[${k}]`, sub);
    else parts.push(`${encodeText(key)}=${v === null ? "" : encodeText(String(v))}`);
  };
  for (const [k, v] of Object.entries(values)) add(k, v);
  return parts.join("&");
}

function pathWith(route: FuzzRoute, params: Record<string, unknown>): string {
  return route.endpoint.path.replace(/\{(\w+)\}/g, (_, name: string) => {
    const v = params[name];
    return encodeText(typeof v === "string" ? v : JSON.stringify(v ?? ""));
  });
}

/** A multipart/form-data body with the given parts. */
export function multipartBody(
  parts: Array<{ name: string; filename?: string; type?: string; data: Buffer | string }>,
  boundary = "----fuzzBoundary7MA4YWxkTrZu0gW",
): { payload: Buffer; contentType: string } {
  const chunks: Buffer[] = [];
  for (const p of parts) {
    const disposition = `form-data; name="${p.name}"${p.filename === undefined ? "" : `; filename="${p.filename}"`}`;
    const head = `--${boundary}\r\nContent-Disposition: ${disposition}\r\n${p.type ? `Content-Type: ${p.type}\r\n` : ""}\r\n`;
    chunks.push(
      Buffer.from(head, "utf8"),
      Buffer.isBuffer(p.data) ? p.data : Buffer.from(p.data, "utf8"),
      Buffer.from("\r\n"),
    );
  }
  chunks.push(Buffer.from(`--${boundary}--\r\n`));
  return { payload: Buffer.concat(chunks), contentType: `multipart/form-data; boundary=${boundary}` };
}

/** A 1×1 PNG. */
export const PNG_1X1 = Buffer.from(
  "89504e470d0a1a0a0000000d49484452000000010000000108060000001f15c4890000000d49444154789c6360000002000100ffff03000006000557bfabd40000000049454e44ae426082",
  "hex",
);

// ---------- the cases ----------

interface Parts {
  query: Record<string, unknown>;
  params: Record<string, unknown>;
  body: unknown;
}

/**
 * Every case of one route: `valid`, `empty`, each field × the per-field values, every hostile value once (round the
 * fields), and the structural variants. `headers` go with each request (the caller's authorization, a language).
 * `limit` keeps an even spread of that many cases (for callers refused at the door, e.g. anonymous on a signed-in
 * route, where every variant meets the same check).
 */
export function casesFor(
  route: FuzzRoute,
  ids: FuzzIds,
  headers: Record<string, string>,
  opts: { limit?: number } = {},
): FuzzCase[] {
  const ep = route.endpoint;
  const cases: FuzzCase[] = [];
  const base: Parts = {
    query: (sampleValue(ep.query, "query", route, ids) as Record<string, unknown>) ?? {},
    params: ep.params ? (sampleValue(ep.params, "params", route, ids) as Record<string, unknown>) : {},
    body: ep.body ? sampleValue(ep.body, "body", route, ids) : undefined,
  };
  if (route.form && base.body && typeof base.body === "object") {
    // The OAuth calls: a sign-in of an unknown account, a revocation of an unknown token.
    base.body = { ...(base.body as object) };
  }
  const lang = (i: number) => LANGUAGES[i % LANGUAGES.length];
  const build = (parts: Parts, extra: Partial<InjectOptions> & { rawQuery?: string; rawPath?: string } = {}) => {
    const qs = extra.rawQuery ?? queryString(parts.query);
    const url = `${extra.rawPath ?? pathWith(route, parts.params)}${qs ? `?${qs}` : ""}`;
    const req: InjectOptions = {
      method: ep.method,
      url,
      headers: { ...headers, "accept-language": lang(cases.length) },
    };
    if (parts.body !== undefined && extra.payload === undefined) {
      if (route.form) {
        req.payload = queryString(parts.body as Record<string, unknown>);
        req.headers = { ...req.headers, "content-type": "application/x-www-form-urlencoded" };
      } else {
        req.payload = JSON.stringify(parts.body);
        req.headers = { ...req.headers, "content-type": "application/json" };
      }
    }
    const { rawQuery: _q, rawPath: _p, headers: extraHeaders, ...rest } = extra;
    return { ...req, ...rest, headers: { ...req.headers, ...(extraHeaders as Record<string, string>) } };
  };
  const add = (variant: string, request: InjectOptions) =>
    cases.push({ route: route.name, variant, kind: route.kind, request });

  add("valid", build(base));
  add("empty", build({ query: {}, params: base.params, body: ep.body ? {} : undefined }));

  // Fields of every part, each replaced by hostile values.
  const fields: Array<{ part: keyof Parts; name: string }> = [];
  for (const part of ["query", "params", "body"] as const) {
    const shape = shapeOf(part === "query" ? ep.query : part === "params" ? ep.params : ep.body);
    for (const name of Object.keys(shape ?? {})) fields.push({ part, name });
  }
  const withField = (field: { part: keyof Parts; name: string } | null, value: unknown): Parts => {
    const parts: Parts = {
      query: { ...base.query },
      params: { ...base.params },
      body: base.body && typeof base.body === "object" ? { ...(base.body as object) } : base.body,
    };
    if (!field) {
      // No field to replace: the value goes in as an unknown parameter.
      parts.query.fuzz = value;
      if (ep.body) parts.body = { ...(parts.body as object), fuzz: value };
      return parts;
    }
    const target = field.part === "body" ? (parts.body as Record<string, unknown>) : parts[field.part];
    target[field.name] = value;
    return parts;
  };
  const all = [...HOSTILE_TEXT, ...HOSTILE_JSON];
  for (const field of fields) {
    for (const [label, value] of all) {
      if (PER_FIELD.has(label)) add(`${field.part}.${field.name}=${label}`, build(withField(field, value)));
    }
  }
  all.forEach(([label, value], i) => {
    if (PER_FIELD.has(label) && fields.length > 0) return;
    const field = fields.length > 0 ? fields[i % fields.length] : null;
    add(`${field ? `${field.part}.${field.name}` : "extra"}=${label}`, build(withField(field, value)));
  });

  // Missing and extra parameters.
  for (const field of fields) {
    const parts = withField(field, undefined);
    add(`${field.part}.${field.name}=missing`, build(parts));
  }
  add(
    "extra-params",
    build({ ...base, query: { ...base.query, fuzz: "1", constructor: "x", "__proto__[admin]": "1" } }),
  );
  add("duplicate-params", build(base, { rawQuery: `${queryString(base.query)}&${queryString(base.query)}` }));
  add("broken-percent", build(base, { rawQuery: "a=%&b=%E0%A4%A&c=%ZZ" }));
  add("query-nul-key", build(base, { rawQuery: `${queryString(base.query)}&%00=%00` }));

  // Bodies of the wrong kind (a GET gets a body too, but only two kinds: it is not read).
  const json = { "content-type": "application/json" };
  const takesBody = ep.method !== "GET";
  if (!takesBody) {
    add("get-with-json-body", build(base, { payload: '{"a":1}', headers: json }));
    add("get-with-invalid-json", build(base, { payload: '{"a":', headers: json }));
  }
  if (takesBody) {
    add("invalid-json", build(base, { payload: '{"a":', headers: json }));
    add("json-nan", build(base, { payload: '{"value": NaN, "n": Infinity}', headers: json }));
    add("json-array-body", build(base, { payload: "[1,2,3]", headers: json }));
    add("json-string-body", build(base, { payload: '"fuzz"', headers: json }));
    add("json-null-body", build(base, { payload: "null", headers: json }));
    add("json-overflow-number", build(base, { payload: '{"x": 1e400, "y": -1e400}', headers: json }));
    add(
      "json-proto",
      build(base, {
        payload: `{"__proto__": {"isAdmin": true}, "constructor": {"prototype": {"x": 1}}}`,
        headers: json,
      }),
    );
    add("json-deep-nesting", build(base, { payload: `${"[".repeat(20_000)}${"]".repeat(20_000)}`, headers: json }));
    add(
      "json-utf16",
      build(base, {
        payload: Buffer.from('{"a":"b"}', "utf16le"),
        headers: { "content-type": "application/json; charset=utf-16" },
      }),
    );
    add("text-plain", build(base, { payload: "hello", headers: { "content-type": "text/plain" } }));
    add(
      "xml",
      build(base, {
        payload: "<?xml version='1.0'?><!DOCTYPE x [<!ENTITY e SYSTEM 'file:///etc/passwd'>]><x>&e;</x>",
        headers: { "content-type": "application/xml" },
      }),
    );
    add(
      "form-body",
      build(base, {
        payload: queryString({ ...(typeof base.body === "object" ? (base.body as object) : {}), fuzz: "a\u0000b" }),
        headers: { "content-type": "application/x-www-form-urlencoded" },
      }),
    );
    add(
      "form-nul",
      build(base, {
        payload: "grant_type=password&username=a%00b&password=x%00",
        headers: { "content-type": "application/x-www-form-urlencoded" },
      }),
    );
    const nulPart = multipartBody([
      { name: "field\u0000", data: "a\u0000b" },
      { name: "file", filename: "../../../etc/pa\u0000sswd.png", type: "image/png", data: PNG_1X1 },
    ]);
    add("multipart-nul", build(base, { payload: nulPart.payload, headers: { "content-type": nulPart.contentType } }));
    add(
      "multipart-no-boundary",
      build(base, { payload: "--x\r\n\r\n", headers: { "content-type": "multipart/form-data" } }),
    );
    add(
      "multipart-truncated",
      build(base, { payload: nulPart.payload.subarray(0, 60), headers: { "content-type": nulPart.contentType } }),
    );
    add("body-too-large", build(base, { payload: JSON.stringify({ big: "z".repeat(200_000) }), headers: json }));
    add("no-content-type", build(base, { payload: "abc", headers: { "content-type": "" } }));
  }

  // URLs and paths.
  add("url-too-long", build(base, { rawQuery: `${queryString(base.query)}&pad=${"p".repeat(9_000)}` }));
  add("path-traversal", build(base, { rawPath: `${pathWith(route, base.params)}/../../../../etc/passwd` }));
  add("encoded-traversal", build(base, { rawPath: `${pathWith(route, base.params)}/..%2f..%2f..%2fetc%2fpasswd` }));
  if (ep.params) {
    const names = Object.keys(shapeOf(ep.params) ?? {});
    const bad = (v: string) => ({ ...base, params: Object.fromEntries(names.map((n) => [n, v])) });
    add("param-too-long", build(bad("q".repeat(300))));
    add("param-bad-encoding", build(base, { rawPath: ep.path.replace(/\{\w+\}/g, "%ED%A0%80") }));
    add("param-dot-dot", build(base, { rawPath: ep.path.replace(/\{\w+\}/g, "..") }));
  }
  add("wrong-method", build(base, { method: ep.method === "GET" ? "PATCH" : "GET" }));

  // Headers the server reads.
  // A control character in any header meets the same edge rule: one such header per route, in turn.
  const controlHeaders: Array<[string, string]> = [
    ["accept-language", "en\u0000"],
    ["x-time-zone", "Europe/Paris\u0000"],
    ["idempotency-key", "k\u0000"],
    ["x-external-callback-secret", "s\u0001"],
    ["authorization", "Bearer \u0000"],
  ];
  const [controlName, controlValue] = controlHeaders[route.name.length % controlHeaders.length];
  add(`header-${controlName}-control`, build(base, { headers: { [controlName]: controlValue } }));
  add(
    "header-accept-language-junk",
    build(base, { headers: { "accept-language": `${"xx-XX;q=0.5,".repeat(500)}*;q=abc` } }),
  );
  add("header-time-zone-traversal", build(base, { headers: { "x-time-zone": "../../../../etc/localtime" } }));
  add("header-time-zone-huge", build(base, { headers: { "x-time-zone": "A/".repeat(3_000) } }));
  add("header-forwarded-for", build(base, { headers: { "x-forwarded-for": "999.999.999.999, ::ffff:zz, \u202e" } }));
  if (takesBody) {
    add("header-idempotency-unicode", build(base, { headers: { "idempotency-key": "ключ-é".repeat(40) } }));
  }
  add("header-authorization-junk", build(base, { headers: { authorization: `Bearer ${"a.".repeat(3_000)}` } }));
  add(
    "header-authorization-none-alg",
    build(base, { headers: { authorization: "Bearer eyJhbGciOiJub25lIn0.eyJzdWIiOiJ4In0." } }),
  );

  if (route.upload) {
    const upload = (label: string, parts: Parameters<typeof multipartBody>[0]) => {
      const m = multipartBody(parts);
      add(label, build(base, { payload: m.payload, headers: { "content-type": m.contentType } }));
    };
    upload("upload-valid", [{ name: "file", filename: "a.png", type: "image/png", data: PNG_1X1 }]);
    upload("upload-wrong-type", [
      { name: "file", filename: "a.png", type: "image/png", data: "<svg onload=alert(1)>" },
    ]);
    upload("upload-traversal-name", [
      { name: "file", filename: "../../../../tmp/x.png", type: "image/png", data: PNG_1X1 },
    ]);
    upload("upload-text-only", [{ name: "note", data: "a\u0000b" }]);
    upload("upload-two-files", [
      { name: "file", filename: "a.png", type: "image/png", data: PNG_1X1 },
      { name: "file", filename: "b.png", type: "image/png", data: PNG_1X1 },
    ]);
    upload("upload-too-large", [
      {
        name: "file",
        filename: "a.png",
        type: "image/png",
        data: Buffer.concat([PNG_1X1, Buffer.alloc(5.5 * 1024 * 1024)]),
      },
    ]);
  }
  if (!opts.limit || cases.length <= opts.limit) return cases;
  // An even spread of `limit` cases, the valid one first.
  const step = cases.length / opts.limit;
  return Array.from({ length: opts.limit }, (_, i) => cases[Math.floor(i * step)]);
}

// ---------- answers ----------

const ZStrictError = z.object({
  code: z.string().nullable(),
  message: z.string().min(1),
  details: z.string().nullable(),
  validationErrors: z.array(z.object({ message: z.string().min(1), members: z.array(z.string()) })).nullable(),
});
const ZStrictEnvelope = abpEnvelope(z.unknown()).extend({ error: ZStrictError.nullable() }).strict();

/**
 * What is wrong with an answer, or null: a 5xx; for an enveloped route anything but the ABP envelope (JSON, success
 * matching the status, an error with a message on 4xx); for the OAuth calls the token answer or `{error,
 * error_description}` (or the envelope for transport errors); for activation `{error}`; for the CSV export text/csv.
 */
export function answerProblem(kind: AnswerKind, res: LightMyRequestResponse): string | null {
  if (res.statusCode >= 500) return `${res.statusCode}: ${res.body.slice(0, 300)}`;
  const type = String(res.headers["content-type"] ?? "");
  if (kind === "csv" && res.statusCode === 200) return type.startsWith("text/csv") ? null : `csv answered ${type}`;
  if (kind === "oauth" && res.statusCode === 200) return null;
  let body: unknown;
  try {
    body = JSON.parse(res.body);
  } catch {
    return `${res.statusCode} not JSON (${type}): ${res.body.slice(0, 120)}`;
  }
  if (kind === "activation") {
    if (res.statusCode < 400 || ZActivationError.safeParse(body).success) return null;
    // A path or method that is not an activation call is the app's 404, in the envelope.
    if (res.statusCode !== 404 || !ZStrictEnvelope.safeParse(body).success)
      return `${res.statusCode} neither {error} nor a 404 envelope: ${res.body.slice(0, 200)}`;
    return null;
  }
  if (kind === "oauth" && ZTokenError.safeParse(body).success)
    return res.statusCode === 400 || res.statusCode === 429 ? null : `oauth error with ${res.statusCode}`;
  const parsed = ZStrictEnvelope.safeParse(body);
  if (!parsed.success) return `${res.statusCode} not the envelope: ${res.body.slice(0, 200)}`;
  const ok = res.statusCode < 400;
  if (parsed.data.success !== ok) return `${res.statusCode} with success ${parsed.data.success}`;
  if (!ok && !parsed.data.error) return `${res.statusCode} without error`;
  if (!type.startsWith("application/json")) return `${res.statusCode} envelope as ${type}`;
  return null;
}
