import { QueryClient } from "@tanstack/react-query";
import { describe, expect, it } from "vitest";
import { getDeviceModelSettingQueryOptions } from "./get-device-model-setting.ts";

/** The staleTime the options give a cached answer naming `deviceModel`. */
function staleTimeFor(deviceModel: string): number {
  const client = new QueryClient();
  const options = getDeviceModelSettingQueryOptions("d1");
  client.setQueryData(options.queryKey, { deviceModel, fields: [], sources: [] });
  const query = client.getQueryCache().find({ queryKey: options.queryKey });
  if (!query || typeof options.staleTime !== "function") throw new Error("staleTime is computed per answer");
  return options.staleTime(query as never) as number;
}

describe("the model's settings query", () => {
  it("keeps an answer that names the model for the session", () => {
    expect(staleTimeFor("AQ-S25")).toBe(Number.POSITIVE_INFINITY);
  });

  it("asks again after an answer for a device that has not told its model (every field)", () => {
    expect(staleTimeFor("")).toBe(0);
  });
});
