import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { bearer, createTestApp, registerByEmail, type TestApp } from "../../../test/helpers.ts";
import { isPrivateAddress } from "./service.ts";

const LOOKUP = "/api/business-basic-data/app/travel-location-lookup";

describe("travel-location-lookup: region tree, IP region, reverse and search (spec §7, §9)", () => {
  let t: TestApp;
  let european: string;

  const get = (method: "GET" | "POST", url: string, query: Record<string, string>, lang = "en", auth?: string) =>
    t.app.inject({
      method,
      url: `${LOOKUP}${url}`,
      query,
      headers: { "accept-language": lang, ...(auth ? { authorization: auth } : {}) },
    });

  beforeAll(async () => {
    t = await createTestApp();
    await registerByEmail(t.app, "eu@regions.test", "pass-word-1");
    european = await bearer(t.app, "eu@regions.test", "pass-word-1");
  });
  afterAll(() => t.close());

  it("answers China's provinces as roots, named in the caller's language", async () => {
    const en = (await get("POST", "/travel-location-child", { serviceRegion: "1" })).json().result;
    expect(en).toHaveLength(34);
    const shanghai = en.find((r: { code: string }) => r.code === "310000");
    expect(shanghai).toMatchObject({ id: 310000, parentId: 0, name: "Shanghai", level: 1, hasChildren: true });
    expect(shanghai.longitude).toBeCloseTo(121.4, 0);
    const zh = (await get("POST", "/travel-location-child", { parentId: "0" }, "zh-CN")).json().result;
    expect(zh.map((r: { name: string }) => r.name)).toContain("上海市");
  });

  it("walks province → city → district with GB/T 2260 codes; pinyin names in the other languages", async () => {
    const cities = (await get("POST", "/travel-location-child", { parentId: "440000" }, "fr")).json().result;
    const guangzhou = cities.find((c: { code: string }) => c.code === "440100");
    expect(guangzhou).toMatchObject({ name: "Guangzhou", level: 2, parentId: 440000, hasChildren: true });
    const districts = (await get("POST", "/travel-location-child", { parentId: "440100" })).json().result;
    expect(districts.find((d: { code: string }) => d.code === "440106")).toMatchObject({
      name: "Tianhe District",
      level: 3,
      hasChildren: false,
    });
    const inRussian = (await get("POST", "/travel-location-child", { parentId: "440100" }, "ru")).json().result;
    expect(inRussian.find((d: { code: string }) => d.code === "440106").name).toBe("район Тяньхэ");
    const inChinese = (await get("POST", "/travel-location-child", { parentId: "310000" }, "zh")).json().result;
    expect(inChinese[0]).toMatchObject({ id: 310101, name: "黄浦区" });
    const huangpu = (await get("POST", "/travel-location-child", { parentId: "310000" })).json().result[0];
    expect(huangpu).toMatchObject({ id: 310101, name: "Huangpu District" });
    expect(huangpu.longitude).toBeCloseTo(121.49, 1);
    expect((await get("POST", "/travel-location-child", { parentId: "999" })).json().result).toEqual([]);
  });

  it("answers Europe's countries and ISO 3166-2 subdivisions; a European user's default region is Europe", async () => {
    const roots = (await get("POST", "/travel-location-child", {}, "fr", european)).json().result;
    const germany = roots.find((r: { code: string }) => r.code === "DE");
    expect(germany).toMatchObject({ name: "Allemagne", level: 1, hasChildren: true });
    expect(roots.find((r: { code: string }) => r.code === "310000")).toBeUndefined();
    const states = (await get("POST", "/travel-location-child", { parentId: String(germany.id) }, "ru")).json().result;
    expect(states.find((s: { code: string }) => s.code === "DE-BY")).toMatchObject({ name: "Бавария", level: 2 });
    const bad = await get("POST", "/travel-location-child", { serviceRegion: "3" });
    expect(bad.statusCode).toBe(400);
  });

  it("locates IP addresses offline; loopback and private addresses answer Shanghai 121.491,31.233", async () => {
    const own = (await get("GET", "/travel_Location_by_ipaddress", {})).json().result;
    expect(own).toMatchObject({ ipAddress: "127.0.0.1", isDefault: true, longitude: 121.491, latitude: 31.233 });
    expect(own.regionId).toBe(310000);
    const lan = (await get("GET", "/travel_Location_by_ipaddress", { ipAddress: "192.168.1.20" }, "zh")).json().result;
    expect(lan).toMatchObject({ isDefault: true, name: "上海市", countryCode: null });
    const de = (await get("GET", "/travel_Location_by_ipaddress", { ipAddress: "81.169.145.1" }, "es")).json().result;
    expect(de).toMatchObject({ countryCode: "DE", name: "Alemania", isDefault: false });
    expect(de.regionId).toBeGreaterThan(1_000_000);
    const us = (await get("GET", "/travel_Location_by_ipaddress", { ipAddress: "8.8.8.8" })).json().result;
    expect(us).toMatchObject({ countryCode: "US", regionId: null, isDefault: false });
    const cn = (await get("GET", "/travel_Location_by_ipaddress", { ipAddress: "114.114.114.114" })).json().result;
    expect(cn).toMatchObject({ countryCode: "CN", name: "China", longitude: 121.491 });
    // Behind a proxy the caller's address comes from X-Forwarded-For (trustProxy).
    const proxied = await t.app.inject({
      method: "GET",
      url: `${LOOKUP}/travel_Location_by_ipaddress`,
      headers: { "x-forwarded-for": "195.154.0.1" },
    });
    expect(proxied.json().result).toMatchObject({ ipAddress: "195.154.0.1", countryCode: "FR" });
    const invalid = await get("GET", "/travel_Location_by_ipaddress", { ipAddress: "not-an-ip" }, "fr");
    expect(invalid.statusCode).toBe(400);
    expect(invalid.json().error.message).toBe("Ce n'est pas une adresse IP valide.");
  });

  it("classifies private addresses", () => {
    for (const ip of [
      "10.1.2.3",
      "172.20.0.1",
      "127.0.0.1",
      "169.254.1.1",
      "100.64.0.1",
      "::1",
      "fd00::1",
      "fe80::1",
    ]) {
      expect(isPrivateAddress(ip), ip).toBe(true);
    }
    for (const ip of ["172.32.0.1", "8.8.8.8", "2001:4860::8888", "11.0.0.1"])
      expect(isPrivateAddress(ip), ip).toBe(false);
  });

  it("reverse: the nearest known region to a point, with its path", async () => {
    const bund = (await get("GET", "/reverse", { longitude: "121.491", latitude: "31.233" }, "zh")).json().result;
    expect(bund).toMatchObject({
      code: "310101",
      province: "上海市",
      city: "上海市",
      district: "黄浦区",
      country: "中国",
      countryCode: "CN",
      address: "上海市黄浦区",
      path: ["上海市", "黄浦区"],
    });
    expect(bund.distanceKm).toBeLessThan(5);
    const tianhe = (await get("GET", "/reverse", { longitude: "113.36", latitude: "23.12" })).json().result;
    expect(tianhe).toMatchObject({ province: "Guangdong", city: "Guangzhou", district: "Tianhe District" });
    const paris = (await get("GET", "/reverse", { longitude: "2.35", latitude: "48.85" }, "fr")).json().result;
    expect(paris).toMatchObject({ countryCode: "FR", country: "France", province: "Île-de-France" });
    expect(paris.address).toBe("Île-de-France, France");
    expect((await get("GET", "/reverse", { longitude: "200", latitude: "0" })).statusCode).toBe(400);
  });

  it("search: up to 10 regions by name in any language, exact matches first, with coordinates", async () => {
    const huangpu = (await get("GET", "/search", { keyword: "黄浦区" }, "zh")).json().result;
    expect(huangpu[0]).toMatchObject({ code: "310101", name: "黄浦区", address: "上海市黄浦区" });
    const inEnglish = (await get("GET", "/search", { keyword: "黄浦区" })).json().result;
    expect(inEnglish[0]).toMatchObject({ code: "310101", address: "Huangpu District, Shanghai", province: "Shanghai" });
    const byPinyin = (await get("GET", "/search", { keyword: "huangpu" })).json().result;
    expect(byPinyin.map((r: { code: string }) => r.code)).toContain("310101");
    expect(typeof huangpu[0].longitude).toBe("number");
    const bavaria = (await get("GET", "/search", { keyword: "bavi" }, "fr")).json().result;
    expect(bavaria[0]).toMatchObject({ code: "DE-BY", name: "Bavière", country: "Allemagne" });
    const many = (await get("GET", "/search", { keyword: "区" })).json().result;
    expect(many).toHaveLength(10);
    const europeOnly = (await get("GET", "/search", { keyword: "区", serviceRegion: "2" })).json().result;
    expect(europeOnly.every((r: { countryCode: string }) => r.countryCode !== "CN")).toBe(true);
    expect((await get("GET", "/search", { keyword: "" })).statusCode).toBe(400);
  });
});

describe("addresses in the reader's language (issue 10)", () => {
  it("gives a stored region path and its region address in the reader's language where the data has the names", async () => {
    const { localizeAddress } = await import("./service.ts");
    const zh = { address: "上海市黄浦区", province: "上海市", city: "上海市", district: "黄浦区" };
    expect(localizeAddress(zh, "en")).toEqual({
      address: "Huangpu District, Shanghai",
      province: "Shanghai",
      city: "Shanghai",
      district: "Huangpu District",
    });
    expect(localizeAddress(localizeAddress(zh, "ru"), "zh-Hans")).toEqual(zh);
    const andorra = { address: "安道尔卡尼略", province: "卡尼略", city: null, district: null };
    expect(localizeAddress(andorra, "ru")).toEqual({
      address: "Канильо, Андорра",
      province: "Канильо",
      city: null,
      district: null,
    });
  });

  it("keeps a street address and a path the data does not know as stored", async () => {
    const { localizeAddress } = await import("./service.ts");
    const street = { address: "人民大道 200 号", province: "上海市", city: "上海市", district: "黄浦区" };
    expect(localizeAddress(street, "fr")).toMatchObject({ address: "人民大道 200 号", province: "Shanghai" });
    const unknown = { address: "Somewhere", province: "Atlantis", city: null, district: null };
    expect(localizeAddress(unknown, "en")).toBe(unknown);
    // A district name that exists elsewhere but not under the stored province is not taken.
    const mismatch = { address: "x", province: "Andorra", city: null, district: "黄浦区" };
    expect(localizeAddress(mismatch, "en")).toBe(mismatch);
  });
});
