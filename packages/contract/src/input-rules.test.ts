import { describe, expect, it } from "vitest";
import { z } from "zod";
import { ZActivationBegin, ZActivationComplete } from "./activation.ts";
import { REVOCATION_PATH, TOKEN_PATH } from "./constants.ts";
import { ZRevocationRequest } from "./endpoints/account.ts";
import {
  isMultilineText,
  isSingleLineText,
  ZEmail,
  ZMultilineText,
  ZNumber,
  ZQueryChoice,
  ZQueryNumber,
  ZRecord,
  ZText,
  ZUrl,
} from "./endpoints/define.ts";
import { deviceFlowStatisticsCsv } from "./endpoints/device-control.ts";
import { endpoints, ZTokenRequest } from "./endpoints.ts";
import { auditInputSchema } from "./input-audit.ts";

/** Every input schema a client reaches: each endpoint's query, body and path values, and the hand-registered calls. */
function inputSchemas(): Array<[string, z.ZodType]> {
  const out: Array<[string, z.ZodType]> = [];
  for (const [name, e] of Object.entries({ ...endpoints, deviceFlowStatisticsCsv })) {
    for (const part of ["query", "body", "params"] as const) {
      const schema = (e as unknown as Record<string, unknown>)[part];
      if (schema) out.push([`${name}.${part}`, schema as z.ZodType]);
    }
  }
  out.push([TOKEN_PATH, ZTokenRequest], [REVOCATION_PATH, ZRevocationRequest]);
  out.push(["activation.begin", ZActivationBegin], ["activation.complete", ZActivationComplete]);
  return out;
}

describe("one input rule at the edge", () => {
  it("bounds every string, number, array and record of every endpoint, and keeps control characters out", () => {
    const schemas = inputSchemas();
    const problems = schemas.flatMap(([name, schema]) => auditInputSchema(schema, name));
    console.log(
      `input rules: ${schemas.length} input schemas of ${Object.keys(endpoints).length} endpoints audited, ${problems.length} problems`,
    );
    expect(problems).toEqual([]);
    expect(schemas.length).toBeGreaterThan(Object.keys(endpoints).length);
  });

  it("the audit finds each kind of unbounded input (so a new endpoint cannot forget)", () => {
    const bad = z.object({
      a: z.string(),
      b: z.string().max(5),
      c: ZText(5).optional(),
      d: z.number().min(0),
      e: z.coerce.number().max(1),
      f: z.array(ZText(3)),
      g: z.record(ZText(3), ZText(3)),
      h: z.unknown(),
      i: z.object({ deep: z.array(z.string()).max(2) }).nullable(),
      j: z.url().max(100),
      k: z.union([z.literal("x"), z.number()]),
    });
    expect(auditInputSchema(bad, "bad")).toEqual([
      "bad.a: string without max",
      "bad.a: string without the text rule (ZText / ZMultilineText)",
      "bad.b: string without the text rule (ZText / ZMultilineText)",
      "bad.d: number without max",
      "bad.e: number without min",
      "bad.f: array without max",
      "bad.g: record without a key limit (ZRecord)",
      "bad.h: unbounded unknown",
      "bad.i.deep[]: string without max",
      "bad.i.deep[]: string without the text rule (ZText / ZMultilineText)",
      "bad.j: string without the text rule (ZText / ZMultilineText)",
      "bad.k: number without min",
      "bad.k: number without max",
    ]);
    const good = z.object({
      a: ZText(5, { trim: true, min: 1 }),
      b: ZMultilineText(500),
      c: ZEmail.optional(),
      d: ZNumber(0, 1),
      e: ZQueryNumber(-1, 1).default(0),
      f: z.array(ZText(3)).max(4),
      g: ZRecord(ZText(3), z.union([ZText(3), ZNumber(0, 9)]), 8),
      h: ZQueryChoice([1, 2]),
      i: ZUrl(100).nullish(),
      j: z.iso.date().max(10),
      k: z.enum(["x", "y"]),
    });
    expect(auditInputSchema(good, "good")).toEqual([]);
  });

  it("refuses NUL, C0, DEL, C1 and lone surrogates; multi-line text keeps tab, LF and CR", () => {
    const refused = [
      "a\u0000b",
      "\u0001",
      "x\u001f",
      "\u007f",
      "\u0085",
      "\u009f",
      "a\ud800",
      "\udc00b",
      "\udfff\ud800",
    ];
    const kept = ["Café ☕", "水软化器", "🚰 ok", "a\u00a0b", "\u200b", "\u202e", "\ufeff", "a\ud83d\udeb0b"];
    for (const v of refused) {
      expect(isSingleLineText(v), JSON.stringify(v)).toBe(false);
      expect(isMultilineText(v), JSON.stringify(v)).toBe(false);
    }
    for (const v of kept) {
      expect(isSingleLineText(v), JSON.stringify(v)).toBe(true);
      expect(isMultilineText(v), JSON.stringify(v)).toBe(true);
    }
    for (const v of ["a\tb", "a\nb", "a\r\nb"]) {
      expect(isSingleLineText(v)).toBe(false);
      expect(isMultilineText(v)).toBe(true);
    }
  });

  it("answers a custom issue with params.rule, and still trims and bounds", () => {
    const name = ZText(8, { trim: true, min: 1 });
    expect(name.parse("  Home  ")).toBe("Home");
    const issues = name.safeParse("Ho\u0000me").error?.issues ?? [];
    expect(issues).toMatchObject([{ code: "custom", params: { rule: "text" } }]);
    expect(name.safeParse("123456789").success).toBe(false);
    expect(name.safeParse("   ").success).toBe(false);
    const many = ZRecord(ZText(4), ZNumber(0, 1), 2).safeParse({ a: 0, b: 1, c: 1 });
    expect(many.error?.issues).toMatchObject([{ code: "custom", params: { rule: "maxKeys", max: 2 } }]);
  });

  it("keeps NUL out of the URL format and numbers finite and bounded", () => {
    const url = ZUrl(2048);
    expect(url.safeParse("https://push.example.com/send/abc").success).toBe(true);
    expect(z.url().safeParse("https://push.example.com/a\u0000b").success).toBe(true); // why ZUrl exists
    expect(url.safeParse("https://push.example.com/a\u0000b").success).toBe(false);
    expect(url.safeParse("javascript:alert(1)").success).toBe(false);
    const n = ZQueryNumber(-90, 90);
    for (const v of ["NaN", "Infinity", "-Infinity", "1e308", "1e400", "91", "abc"])
      expect(n.safeParse(v).success).toBe(false);
    expect(n.parse("-12.5")).toBe(-12.5);
    expect(ZNumber(0, 1).safeParse(Number.NaN).success).toBe(false);
  });

  it("bounds the OAuth form bodies: a NUL in a user name is refused before it reaches a database", () => {
    const ok = ZTokenRequest.safeParse({ grant_type: "password", username: "a@b.cd", password: "secret1" });
    expect(ok.success).toBe(true);
    const nul = ZTokenRequest.safeParse({ grant_type: "password", username: "a\u0000b", password: "secret1" });
    expect(nul.error?.issues[0]?.path).toEqual(["username"]);
    expect(ZTokenRequest.safeParse({ grant_type: "refresh_token", refresh_token: "x".repeat(5000) }).success).toBe(
      false,
    );
  });
});
