import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { z } from "zod";
import { OPEN, SIGNED_IN } from "./endpoints/access.ts";
import { endpoint } from "./endpoints/define.ts";
import { generateRoutesModule, toWire } from "./endpoints/to-wire.ts";
import { deviceFlowStatisticsCsv, endpoints } from "./endpoints.ts";
import * as wire from "./wire.ts";

describe("routes.generated.ts (the zod-free endpoint table of the web app)", () => {
  it("is what the generator writes from the contract now (run `npm run generate -w packages/contract`)", () => {
    const committed = readFileSync(new URL("./routes.generated.ts", import.meta.url), "utf8");
    expect(committed).toBe(generateRoutesModule(endpoints, { deviceFlowStatisticsCsv }));
  });

  it("holds every endpoint with its method, path and declared names, and nothing else", () => {
    expect(Object.keys(wire.endpoints).sort()).toEqual(Object.keys(endpoints).sort());
    for (const [name, full] of Object.entries(endpoints)) {
      const w = wire.endpoints[name as keyof typeof endpoints];
      expect(w.method, name).toBe(full.method);
      expect(w.path, name).toBe(full.path);
      expect(w.open === true, name).toBe(full.access.caller === "open");
      expect([...w.query].sort(), name).toEqual(Object.keys(full.query.shape).sort());
    }
    expect(wire.deviceFlowStatisticsCsv.path).toBe(deviceFlowStatisticsCsv.path);
  });

  it("toWire tells no body, an object body and a body without declared keys apart", () => {
    const base = {
      method: "POST" as const,
      path: "/x/{id}",
      query: z.object({ a: z.string() }),
      result: z.null(),
      access: SIGNED_IN,
    };
    expect(toWire(endpoint({ ...base, body: undefined, summary: "" }))).toEqual({
      method: "POST",
      path: "/x/{id}",
      query: ["a"],
      body: null,
    });
    expect(
      toWire(endpoint({ ...base, body: z.object({ b: z.number(), c: z.string() }), access: OPEN, summary: "" })),
    ).toEqual({ method: "POST", path: "/x/{id}", open: true, query: ["a"], body: ["b", "c"] });
    expect(toWire(endpoint({ ...base, body: z.array(z.string()), summary: "" })).body).toBe("any");
  });
});
