import { describe, expect, it } from "vitest";
import { checkNativeProjects } from "./check-native.ts";

describe("native projects", () => {
  it("cap sync runs offline on the committed tree and changes none of its files", () => {
    const { changed, output } = checkNativeProjects();
    expect(output).toMatch(/Sync finished/);
    expect(output).toMatch(/Found \d+ Capacitor plugins for android/);
    expect(changed).toEqual([]);
  });
});
