import { ServiceRegion } from "@aquapilot/contract/wire";
import { describe, expect, it } from "vitest";
import { DEFAULT_CENTER, DEFAULT_ZOOM, defaultViewFor } from "./defaults.ts";

describe("defaultViewFor", () => {
  it("opens a Europe-region owner's map on Europe, zoomed out to show most of it", () => {
    const view = defaultViewFor(ServiceRegion.Europe);
    expect(view.center.longitude).toBeGreaterThan(-10);
    expect(view.center.longitude).toBeLessThan(30);
    expect(view.center.latitude).toBeGreaterThan(40);
    expect(view.center.latitude).toBeLessThan(60);
    expect(view.zoom).toBeLessThanOrEqual(6);
  });

  it("keeps the spec's default centre at street level in the China region and when the region is unknown", () => {
    for (const region of [ServiceRegion.China, null, undefined]) {
      expect(defaultViewFor(region)).toEqual({ center: DEFAULT_CENTER, zoom: DEFAULT_ZOOM });
    }
    expect(DEFAULT_CENTER).toEqual({ longitude: 121.491, latitude: 31.233 });
  });
});
