import { afterEach, describe, expect, it, vi } from "vitest";
import { loadCliConfig } from "./cli-config.ts";

afterEach(() => vi.unstubAllEnvs());

describe("loadCliConfig (operators' command-line tools)", () => {
  it("answers the configuration from the environment", () => {
    vi.stubEnv("PORT", "18080");
    const written: string[] = [];
    expect(loadCliConfig((text) => written.push(text))?.PORT).toBe(18080);
    expect(written).toEqual([]);
  });

  it("writes a configuration error as one line naming the variable and answers null", () => {
    vi.stubEnv("PORT", "not-a-port");
    const written: string[] = [];
    expect(loadCliConfig((text) => written.push(text))).toBeNull();
    expect(written).toHaveLength(1);
    expect(written[0]).toMatch(/PORT/);
    expect(written[0].endsWith("\n")).toBe(true);
  });
});
