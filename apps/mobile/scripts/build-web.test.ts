import { createHash } from "node:crypto";
import { describe, expect, it } from "vitest";
import { injectPolicy, shellContentSecurityPolicy } from "./build-web.ts";

const PAGE =
  '<!doctype html><html><head><meta charset="utf-8"><script src="./native-shell.js"></script>' +
  "<script data-entry>boot()</script></head><body></body></html>";

/** The policy's directives by name, each with its sources. */
function directives(policy: string): Record<string, string[]> {
  return Object.fromEntries(
    policy.split("; ").map((d) => {
      const [name = "", ...sources] = d.split(" ");
      return [name, sources];
    }),
  );
}

describe("the shells' content policy", () => {
  it("is the served page's policy with the cloud for connections and images, and no frame-ancestors", () => {
    const d = directives(shellContentSecurityPolicy(PAGE, "https://cloud.example.com/base"));
    const bootHash = `'sha256-${createHash("sha256").update("boot()", "utf8").digest("base64")}'`;
    expect(d["default-src"]).toEqual(["'self'"]);
    expect(d["script-src"]).toEqual(expect.arrayContaining(["'self'", bootHash]));
    expect(d["script-src"]).not.toContain("'unsafe-inline'");
    expect(d["connect-src"]).toEqual(
      expect.arrayContaining(["'self'", "https://cloud.example.com", "wss://cloud.example.com"]),
    );
    expect(d["img-src"]).toEqual(expect.arrayContaining(["'self'", "data:", "blob:", "https://cloud.example.com"]));
    // every map provider's tile hosts, since the cloud picks the provider at run time
    expect(d["img-src"]).toEqual(expect.arrayContaining(["https://*.is.autonavi.com", "https://*.tianditu.gov.cn"]));
    expect(d["img-src"]?.some((s) => s.includes("images.example.net") || s === "*" || s === "https:")).toBe(false);
    expect(d["object-src"]).toEqual(["'none'"]);
    expect(d["frame-ancestors"]).toBeUndefined();
  });

  it("is put first in the head, before every script, once", () => {
    const once = injectPolicy(PAGE, "default-src 'self'");
    const twice = injectPolicy(once, "default-src 'none'");
    expect(twice.match(/http-equiv="Content-Security-Policy"/g)).toHaveLength(1);
    expect(twice).toContain(`content="default-src 'none'"`);
    expect(twice.indexOf("Content-Security-Policy")).toBeLessThan(twice.indexOf("<script"));
    expect(() => injectPolicy("<html><body></body></html>", "x")).toThrow(/no <head>/);
  });
});
