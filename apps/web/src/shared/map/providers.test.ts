import { describe, expect, it } from "vitest";
import type { RegionPlace } from "./api/reverse-region.ts";
import { locationFromRegion } from "./geocode.ts";
import {
  amapProvider,
  baiduProvider,
  providerForType,
  SEARCH_COUNT,
  tencentProvider,
  tiandituProvider,
} from "./providers.ts";

const bounds = { southWest: { longitude: 121, latitude: 31 }, northEast: { longitude: 122, latitude: 32 } };

describe("map providers (spec §1 type codes, §7 search and keys)", () => {
  it("maps type codes 1/2/3 and any other to Tianditu, each with its coordinate system", () => {
    expect(providerForType(1)).toBe(amapProvider);
    expect(providerForType(2)).toBe(baiduProvider);
    expect(providerForType(3)).toBe(tencentProvider);
    for (const other of [0, 4, 9, null, undefined]) expect(providerForType(other)).toBe(tiandituProvider);
    expect([amapProvider.crs, baiduProvider.crs, tencentProvider.crs, tiandituProvider.crs]).toEqual([
      "GCJ02",
      "BD09",
      "GCJ02",
      "WGS84",
    ]);
  });

  it("fills {key} into tile templates and leaves keyed vendors without tiles when the key is missing", () => {
    const tiles = tiandituProvider.tiles("normal", "tk-123");
    expect(tiles).toHaveLength(2);
    expect(tiles[0].url).toContain("tk=tk-123");
    expect(tiles[0].url).not.toContain("{key}");
    expect(tiandituProvider.tiles("satellite", "")).toEqual([]);
    expect(tencentProvider.tiles("normal", "qq-key")[0].url).toContain("key=qq-key");
    expect(amapProvider.tiles("satellite", "")).toHaveLength(2);
  });

  it("sends the Tianditu place search of §7: keyword, map bound, level 12, query type 7, start 0, count 10", () => {
    const req = tiandituProvider.searchRequest("人民广场", bounds, "tk");
    const url = new URL(req.url);
    expect(url.origin + url.pathname).toBe("https://api.tianditu.gov.cn/v2/search");
    expect(JSON.parse(url.searchParams.get("postStr") ?? "")).toEqual({
      keyWord: "人民广场",
      mapBound: "121,31,122,32",
      level: 12,
      queryType: 7,
      start: 0,
      count: 10,
    });
    expect(url.searchParams.get("type")).toBe("query");
    expect(url.searchParams.get("tk")).toBe("tk");
  });

  it("asks every vendor for at most 10 hits", () => {
    expect(new URL(amapProvider.searchRequest("x", bounds, "k").url).searchParams.get("offset")).toBe(
      String(SEARCH_COUNT),
    );
    expect(new URL(baiduProvider.searchRequest("x", bounds, "k").url).searchParams.get("page_size")).toBe("10");
    expect(new URL(tencentProvider.searchRequest("x", bounds, "k").url).searchParams.get("page_size")).toBe("10");
  });

  it("parses hits and caps them at 10", () => {
    const pois = Array.from({ length: 12 }, (_, i) => ({ name: `P${i}`, address: "addr", lonlat: `121.${i},31.2` }));
    const hits = tiandituProvider.parseSearch({ status: { infocode: 1000 }, pois });
    expect(hits).toHaveLength(10);
    expect(hits[3]).toEqual({ name: "P3", address: "addr", lng: 121.3, lat: 31.2 });
    expect(amapProvider.parseSearch({ status: "1", pois: [{ name: "A", address: "B", location: "1.5,2.5" }] })).toEqual(
      [{ name: "A", address: "B", lng: 1.5, lat: 2.5 }],
    );
  });

  it("treats a geocoder status other than success as failure (spec §8)", () => {
    expect(() => tiandituProvider.parseReverse({ status: "1", msg: "bad key" })).toThrow("bad key");
    expect(() => baiduProvider.parseReverse({ status: 2 })).toThrow();
    expect(() => amapProvider.parseReverse({ status: "0", info: "INVALID_USER_KEY" })).toThrow("INVALID_USER_KEY");
    const ok = tiandituProvider.parseReverse({
      status: "0",
      result: {
        formatted_address: "上海市黄浦区人民大道",
        addressComponent: { province: "上海市", county: "黄浦区", road: "人民大道" },
      },
    });
    expect(ok).toMatchObject({
      address: "上海市黄浦区人民大道",
      province: "上海市",
      city: "上海市",
      district: "黄浦区",
    });
  });
});

describe("server region fallback", () => {
  it("turns the nearest region into a Location result", () => {
    const place: RegionPlace = {
      id: 310101,
      parentId: 310100,
      name: "黄浦区",
      code: "310101",
      level: 3,
      hasChildren: false,
      path: ["上海市", "上海市", "黄浦区"],
      address: "上海市 黄浦区",
      province: "上海市",
      city: "上海市",
      district: "黄浦区",
      country: "中国",
      countryCode: "CN",
    };
    const result = locationFromRegion({ longitude: 121.49, latitude: 31.23 }, place);
    expect(result).toMatchObject({ hasAddress: true, province: "上海市", district: "黄浦区", cityCode: "310101" });
    expect(result.longitude).toBe(121.49);
    expect(locationFromRegion({ longitude: 0, latitude: 0 }, { ...place, address: "" }).hasAddress).toBe(false);
  });
});
