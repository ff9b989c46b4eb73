import { afterEach, describe, expect, it, vi } from "vitest";
import { parseRouteParams, setNavigator } from "../../../shared/navigation/index.ts";
import { setupEntries } from "../params.ts";
import { goToStep } from "./setup-context.ts";

afterEach(() => setNavigator(null));

/** The params of each navigation `run` makes (read back from the /App URLs). */
async function paramsOf(run: () => void): Promise<Array<Record<string, unknown>>> {
  const navigate = vi.fn();
  setNavigator({ navigate });
  run();
  await Promise.resolve();
  return navigate.mock.calls.map(([url]) => parseRouteParams(String(url).slice(String(url).indexOf("?"))));
}

describe("the setup's pages count themselves (so a finished setup can take them out of history)", () => {
  it("each pushed step is one deeper; a replaced step keeps its depth", async () => {
    const [guide] = await paramsOf(() => goToStep({ familyId: "f1" }, "guide", { mode: "ble" }));
    expect(guide).toEqual({ familyId: "f1", mode: "ble", step: "guide", depth: 1 });
    const [wifi] = await paramsOf(() => goToStep({ ...guide, step: "permissions", depth: 2 }, "wifi"));
    expect(wifi.depth).toBe(3);
    const [again] = await paramsOf(() => goToStep(wifi, "wifi", {}, { replace: true }));
    expect(again.depth).toBe(3);
  });

  it("setupEntries counts the page itself and those below it; a first page or a bad depth is one", () => {
    expect(setupEntries({})).toBe(1);
    expect(setupEntries({ depth: 0 })).toBe(1);
    expect(setupEntries({ depth: 4 })).toBe(5);
    expect(setupEntries({ depth: -2 })).toBe(1);
    expect(setupEntries({ depth: 1.5 })).toBe(1);
  });
});
