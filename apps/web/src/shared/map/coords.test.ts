import { describe, expect, it } from "vitest";
import {
  bd09ToMercator,
  CHINA_BOUNDS,
  type CoordSystem,
  convertCoord,
  distanceMeters,
  formatLngLat,
  isInChina,
  mercatorToBd09,
} from "./coords.ts";

/**
 * Test points published in gcoord's own tests (hujiulong/gcoord test/unit/crs/{WGS84,GCJ02,BD09}.spec.ts and
 * test/fixtures/china-cities.json), so the map layer is checked against the library's reference values.
 */
const P = { longitude: 123, latitude: 45 };
const CRS_POINTS: Array<[CoordSystem, CoordSystem, [number, number]]> = [
  ["WGS84", "GCJ02", [123.00607541, 45.00197815]],
  ["WGS84", "BD09", [123.0124491, 45.0083293]],
  ["GCJ02", "WGS84", [122.99395597, 44.99804071]],
  ["GCJ02", "BD09", [123.00636499, 45.00636899]],
  ["BD09", "GCJ02", [122.99363304, 44.9936543]],
  ["BD09", "WGS84", [122.9876221, 44.9917154]],
];

const CITIES: Array<{ name: string; WGS84: [number, number]; GCJ02: [number, number]; BD09: [number, number] }> = [
  {
    name: "驻马店市",
    WGS84: [114.0164322, 33.0133556],
    GCJ02: [114.022306, 33.0115324],
    BD09: [114.0287781, 33.0176697],
  },
  {
    name: "郑州市",
    WGS84: [113.6192856, 34.7478004],
    GCJ02: [113.6253334, 34.7466173],
    BD09: [113.6317519, 34.7528605],
  },
  {
    name: "沈阳市",
    WGS84: [123.4253306, 41.8032629],
    GCJ02: [123.4314787, 41.8057023],
    BD09: [123.438095, 41.8114013],
  },
  { name: "酒泉市", WGS84: [98.4937175, 39.7319946], GCJ02: [98.4943595, 39.7328234], BD09: [98.5008441, 39.7388949] },
  {
    name: "泉州市",
    WGS84: [118.6711365, 24.8770487],
    GCJ02: [118.6756787, 24.8741363],
    BD09: [118.6821251, 24.8804872],
  },
];

const at = ([longitude, latitude]: [number, number]) => ({ longitude, latitude });

describe("coordinate conversion (spec §1, §5) against gcoord's published points", () => {
  for (const [from, to, [lng, lat]] of CRS_POINTS) {
    it(`${from} → ${to} of 123,45`, () => {
      const r = convertCoord(P, from, to);
      expect(r.longitude).toBeCloseTo(lng, 5);
      expect(r.latitude).toBeCloseTo(lat, 5);
    });
  }

  for (const city of CITIES) {
    it(`${city.name}: WGS84 ↔ GCJ02 ↔ BD09`, () => {
      const gcj = convertCoord(at(city.WGS84), "WGS84", "GCJ02");
      expect(gcj.longitude).toBeCloseTo(city.GCJ02[0], 4);
      expect(gcj.latitude).toBeCloseTo(city.GCJ02[1], 4);
      const bd = convertCoord(at(city.WGS84), "WGS84", "BD09");
      expect(bd.longitude).toBeCloseTo(city.BD09[0], 4);
      expect(bd.latitude).toBeCloseTo(city.BD09[1], 4);
      const back = convertCoord(at(city.GCJ02), "GCJ02", "WGS84");
      expect(back.longitude).toBeCloseTo(city.WGS84[0], 4);
      expect(back.latitude).toBeCloseTo(city.WGS84[1], 4);
      const gcjFromBd = convertCoord(at(city.BD09), "BD09", "GCJ02");
      expect(gcjFromBd.longitude).toBeCloseTo(city.GCJ02[0], 5);
      expect(gcjFromBd.latitude).toBeCloseTo(city.GCJ02[1], 5);
    });
  }

  it("the same system is the identity", () => {
    expect(convertCoord(P, "GCJ02", "GCJ02")).toEqual(P);
  });
});

describe("China bounds of spec §5: outside them nothing shifts", () => {
  it("has the bounds of the spec", () => {
    expect(CHINA_BOUNDS).toEqual({
      minLongitude: 72.004,
      maxLongitude: 137.8347,
      minLatitude: 0.8293,
      maxLatitude: 55.8271,
    });
  });

  it("classifies points at and beyond each edge", () => {
    expect(isInChina({ longitude: 121.491, latitude: 31.233 })).toBe(true);
    expect(isInChina({ longitude: 72.004, latitude: 30 })).toBe(true);
    expect(isInChina({ longitude: 72.0039, latitude: 30 })).toBe(false);
    expect(isInChina({ longitude: 137.8348, latitude: 30 })).toBe(false);
    expect(isInChina({ longitude: 100, latitude: 0.8292 })).toBe(false);
    expect(isInChina({ longitude: 100, latitude: 55.8272 })).toBe(false);
  });

  const outside = [
    { longitude: 183, latitude: 45 }, // gcoord's own "not in China" point
    { longitude: 2.3522, latitude: 48.8566 }, // Paris
    { longitude: 37.6173, latitude: 55.7558 }, // Moscow
    { longitude: 72.0039, latitude: 30 }, // just west of the bounds
    { longitude: 120, latitude: 55.8272 }, // just north of the bounds
  ];
  for (const point of outside) {
    it(`${point.longitude},${point.latitude} is unchanged in every direction`, () => {
      for (const from of ["WGS84", "GCJ02", "BD09"] as const) {
        for (const to of ["WGS84", "GCJ02", "BD09"] as const) {
          expect(convertCoord(point, from, to)).toEqual(point);
        }
      }
    });
  }

  it("a point just inside the bounds does shift", () => {
    const inside = { longitude: 121.491, latitude: 31.233 };
    const shifted = convertCoord(inside, "WGS84", "GCJ02");
    expect(distanceMeters(inside, shifted)).toBeGreaterThan(100);
    expect(distanceMeters(inside, shifted)).toBeLessThan(1000);
  });

  it("rejects non-finite coordinates", () => {
    expect(() => convertCoord({ longitude: Number.NaN, latitude: 1 }, "WGS84", "GCJ02")).toThrow();
  });
});

describe("helpers", () => {
  it("Baidu Mercator round-trips", () => {
    const p = { longitude: 121.5, latitude: 31.24 };
    const m = bd09ToMercator(p);
    expect(m.x).toBeGreaterThan(13_000_000);
    const back = mercatorToBd09(m.x, m.y);
    expect(back.longitude).toBeCloseTo(p.longitude, 5);
    expect(back.latitude).toBeCloseTo(p.latitude, 5);
  });

  it("measures distances in metres and formats the pair", () => {
    expect(distanceMeters({ longitude: 0, latitude: 0 }, { longitude: 0, latitude: 1 })).toBeCloseTo(111_195, -1);
    expect(formatLngLat({ longitude: 121.491, latitude: 31.233 })).toBe("121.491000,31.233000");
  });
});
