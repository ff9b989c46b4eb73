import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { describe, expect, it } from "vitest";
import { lightenIcon, shortenPath } from "./vite-icons.ts";

const require = createRequire(import.meta.url);
const icon = (name: string) => readFileSync(require.resolve(`antd-mobile-icons/es/${name}.js`), "utf8");

describe("lighter antd-mobile icons (smaller first screens)", () => {
  it("keeps the component and its paths, with two decimals and without ids", () => {
    const original = icon("DownOutline");
    const light = lightenIcon(original);
    expect(light.length).toBeLessThan(original.length * 0.75);
    expect(light).not.toMatch(/\bid: "/);
    expect(original).toContain("xmlnsXlink");
    expect(light).not.toContain("xmlnsXlink");
    // Same component: the same props, class name and export.
    for (const kept of [
      "function DownOutline(props)",
      'viewBox: "0 0 48 48"',
      "antd-mobile-icon",
      "export default DownOutline",
    ]) {
      expect(light).toContain(kept);
    }
    const paths = [...light.matchAll(/\bd: "([^"]+)"/g)].map((m) => m[1] ?? "");
    expect(paths).toHaveLength(1);
    expect(paths[0]).toMatch(/^m5\.11 16\.4 /);
    expect(paths[0]).not.toMatch(/\.\d{3}/);
  });

  it("rounds path data to two decimals without changing its commands' shape", () => {
    expect(shortenPath("M10.123456,20.987654 L30.5,40.25 Z")).toBe("M10.12 20.99 30.5 40.25Z");
    expect(lightenIcon('React.createElement("g", { id: "X-\\u77E9", fill: "none" })')).toBe(
      'React.createElement("g", { fill: "none" })',
    );
  });
});
