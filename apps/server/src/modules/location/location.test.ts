import { endpoints } from "@aquapilot/contract";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type Caller, call, describeEndpoint, type QueryOptions } from "../../../test/call.ts";
import { bearer, createTestApp, registerByEmail, type TestApp } from "../../../test/helpers.ts";
import { isPrivateAddress } from "./service.ts";

describe("travel-location-lookup: region tree, IP region, reverse and search (spec §7, §9)", () => {
  let t: TestApp;
  let european: string;

  const children = (query: QueryOptions<typeof endpoints.getRegionChildren>, lang = "en", as?: Caller) =>
    call(t, endpoints.getRegionChildren, { query, lang, as });
  const byIp = (query: QueryOptions<typeof endpoints.getLocationByIp>, lang = "en") =>
    call(t, endpoints.getLocationByIp, { query, lang });
  const reverse = (query: QueryOptions<typeof endpoints.reverseRegion>, lang = "en") =>
    call(t, endpoints.reverseRegion, { query, lang });
  const search = (query: QueryOptions<typeof endpoints.searchRegions>, lang = "en") =>
    call(t, endpoints.searchRegions, { query, lang });

  beforeAll(async () => {
    t = await createTestApp();
    await registerByEmail(t.app, "eu@regions.test", "pass-word-1");
    european = await bearer(t.app, "eu@regions.test", "pass-word-1");
  });
  afterAll(() => t.close());

  describeEndpoint(endpoints.getRegionChildren, "region tree", () => {
    it("answers China's provinces as roots, named in the caller's language", async () => {
      const en = (await children({ serviceRegion: "1" })).result;
      expect(en).toHaveLength(34);
      const shanghai = en.find((r) => r.code === "310000");
      expect(shanghai).toMatchObject({ id: 310000, parentId: 0, name: "Shanghai", level: 1, hasChildren: true });
      expect(shanghai?.longitude).toBeCloseTo(121.4, 0);
      const zh = (await children({ parentId: "0" }, "zh-CN")).result;
      expect(zh.map((r) => r.name)).toContain("上海市");
    });

    it("walks province → city → district with GB/T 2260 codes; pinyin names in the other languages", async () => {
      const cities = (await children({ parentId: "440000" }, "fr")).result;
      const guangzhou = cities.find((c) => c.code === "440100");
      expect(guangzhou).toMatchObject({ name: "Guangzhou", level: 2, parentId: 440000, hasChildren: true });
      const districts = (await children({ parentId: "440100" })).result;
      expect(districts.find((d) => d.code === "440106")).toMatchObject({
        name: "Tianhe District",
        level: 3,
        hasChildren: false,
      });
      const inRussian = (await children({ parentId: "440100" }, "ru")).result;
      expect(inRussian.find((d) => d.code === "440106")?.name).toBe("район Тяньхэ");
      const inChinese = (await children({ parentId: "310000" }, "zh")).result;
      expect(inChinese[0]).toMatchObject({ id: 310101, name: "黄浦区" });
      const huangpu = (await children({ parentId: "310000" })).result[0];
      expect(huangpu).toMatchObject({ id: 310101, name: "Huangpu District" });
      expect(huangpu.longitude).toBeCloseTo(121.49, 1);
      expect((await children({ parentId: "999" })).result).toEqual([]);
    });

    it("answers Europe's countries and ISO 3166-2 subdivisions; a European user's default region is Europe", async () => {
      const roots = (await children({}, "fr", european)).result;
      const germany = roots.find((r) => r.code === "DE");
      expect(germany).toMatchObject({ name: "Allemagne", level: 1, hasChildren: true });
      expect(roots.find((r) => r.code === "310000")).toBeUndefined();
      const states = (await children({ parentId: String(germany?.id) }, "ru")).result;
      expect(states.find((s) => s.code === "DE-BY")).toMatchObject({ name: "Бавария", level: 2 });
      const bad = await children({ serviceRegion: "3" });
      expect(bad.status).toBe(400);
    });
  });

  describeEndpoint(endpoints.getLocationByIp, () => {
    it("locates IP addresses offline; loopback and private addresses answer Shanghai 121.491,31.233", async () => {
      const own = (await byIp({})).result;
      expect(own).toMatchObject({ ipAddress: "127.0.0.1", isDefault: true, longitude: 121.491, latitude: 31.233 });
      expect(own.regionId).toBe(310000);
      const lan = (await byIp({ ipAddress: "192.168.1.20" }, "zh")).result;
      expect(lan).toMatchObject({ isDefault: true, name: "上海市", countryCode: null });
      const de = (await byIp({ ipAddress: "81.169.145.1" }, "es")).result;
      expect(de).toMatchObject({ countryCode: "DE", name: "Alemania", isDefault: false });
      expect(de.regionId).toBeGreaterThan(1_000_000);
      const us = (await byIp({ ipAddress: "8.8.8.8" })).result;
      expect(us).toMatchObject({ countryCode: "US", regionId: null, isDefault: false });
      const cn = (await byIp({ ipAddress: "114.114.114.114" })).result;
      expect(cn).toMatchObject({ countryCode: "CN", name: "China", longitude: 121.491 });
      // Behind a proxy the caller's address comes from X-Forwarded-For (trustProxy).
      const proxied = await call(t, endpoints.getLocationByIp, {
        lang: null,
        headers: { "x-forwarded-for": "195.154.0.1" },
      });
      expect(proxied.result).toMatchObject({ ipAddress: "195.154.0.1", countryCode: "FR" });
      const invalid = await byIp({ ipAddress: "not-an-ip" }, "fr");
      expect(invalid.status).toBe(400);
      expect(invalid.body.error.message).toBe("Ce n'est pas une adresse IP valide.");
    });
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

  describeEndpoint(endpoints.reverseRegion, () => {
    it("reverse: the nearest known region to a point, with its path", async () => {
      const bund = (await reverse({ longitude: "121.491", latitude: "31.233" }, "zh")).result;
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
      expect(bund?.distanceKm).toBeLessThan(5);
      const tianhe = (await reverse({ longitude: "113.36", latitude: "23.12" })).result;
      expect(tianhe).toMatchObject({ province: "Guangdong", city: "Guangzhou", district: "Tianhe District" });
      const paris = (await reverse({ longitude: "2.35", latitude: "48.85" }, "fr")).result;
      expect(paris).toMatchObject({ countryCode: "FR", country: "France", province: "Île-de-France" });
      expect(paris?.address).toBe("Île-de-France, France");
      expect((await reverse({ longitude: "200", latitude: "0" })).status).toBe(400);
    });
  });

  describeEndpoint(endpoints.searchRegions, () => {
    it("search: up to 10 regions by name in any language, exact matches first, with coordinates", async () => {
      const huangpu = (await search({ keyword: "黄浦区" }, "zh")).result;
      expect(huangpu[0]).toMatchObject({ code: "310101", name: "黄浦区", address: "上海市黄浦区" });
      const inEnglish = (await search({ keyword: "黄浦区" })).result;
      expect(inEnglish[0]).toMatchObject({
        code: "310101",
        address: "Huangpu District, Shanghai",
        province: "Shanghai",
      });
      const byPinyin = (await search({ keyword: "huangpu" })).result;
      expect(byPinyin.map((r) => r.code)).toContain("310101");
      expect(typeof huangpu[0].longitude).toBe("number");
      const bavaria = (await search({ keyword: "bavi" }, "fr")).result;
      expect(bavaria[0]).toMatchObject({ code: "DE-BY", name: "Bavière", country: "Allemagne" });
      const many = (await search({ keyword: "区" })).result;
      expect(many).toHaveLength(10);
      const europeOnly = (await search({ keyword: "区", serviceRegion: "2" })).result;
      expect(europeOnly.every((r) => r.countryCode !== "CN")).toBe(true);
      expect((await search({ keyword: "" })).status).toBe(400);
    });
  });
});

describe("addresses in the reader's language", () => {
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
