import { describe, expect, it } from "vitest";
import { assertMarkerIcon, formatDistance } from "./overlays.ts";
import { amapProvider } from "./providers.ts";

describe("markers (spec §5: a custom icon must give a size)", () => {
  it("throws for a custom icon without a size", () => {
    expect(() => assertMarkerIcon({ url: "/pin.png" })).toThrow(Error);
    expect(() => assertMarkerIcon({ url: "/pin.png", size: [0, 20] })).toThrow(/size/);
    expect(() => assertMarkerIcon({ url: "/pin.png", size: [20, -1] })).toThrow(/size/);
  });

  it("accepts a sized icon and anchors it at the bottom centre by default", () => {
    expect(assertMarkerIcon({ url: "/pin.png", size: [24, 32] })).toEqual({ size: [24, 32], anchor: [12, 32] });
    expect(assertMarkerIcon({ url: "/pin.png", size: [20, 20], anchor: [10, 10] }).anchor).toEqual([10, 10]);
  });

  it("the Leaflet map view refuses an unsized icon and draws markers, lines and polygons", async () => {
    const { createMapView } = await import("./leaflet-view.ts");
    const container = document.createElement("div");
    container.style.width = "375px";
    container.style.height = "600px";
    document.body.appendChild(container);
    const view = createMapView(container, {
      provider: amapProvider,
      keys: {},
      center: { longitude: 121.491, latitude: 31.233 },
      zoom: 16,
    });
    try {
      expect(() => view.addMarker({ longitude: 121.49, latitude: 31.23 }, { icon: { url: "/pin.png" } })).toThrow(
        /size/,
      );
      const marker = view.addMarker(
        { longitude: 121.49, latitude: 31.23 },
        { icon: { url: "/pin.png", size: [20, 20] } },
      );
      // the app's GCJ-02 point comes back unchanged through the provider's system
      expect(marker.getPosition().longitude).toBeCloseTo(121.49, 9);
      const line = view.addPolyline([
        { longitude: 121.49, latitude: 31.23 },
        { longitude: 121.5, latitude: 31.24 },
      ]);
      const polygon = view.addPolygon([
        { longitude: 121.49, latitude: 31.23 },
        { longitude: 121.5, latitude: 31.23 },
        { longitude: 121.5, latitude: 31.24 },
      ]);
      expect(container.querySelectorAll("path").length).toBeGreaterThanOrEqual(2);
      line.remove();
      polygon.remove();
      marker.remove();
      expect(view.getCenter().latitude).toBeCloseTo(31.233, 6);
    } finally {
      view.destroy();
      container.remove();
    }
  });
});

describe("distance text", () => {
  it("shows metres below 1 km and kilometres above", () => {
    expect(formatDistance(849.6)).toBe("850 m");
    expect(formatDistance(1234)).toBe("1.23 km");
  });
});
