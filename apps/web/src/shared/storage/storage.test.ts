import { beforeEach, describe, expect, it } from "vitest";
import {
  clearSession,
  getAccessToken,
  getItem,
  getUserFamily,
  rememberedWifiPassword,
  rememberWifi,
  removeRetiredKeys,
  setItem,
  setUserFamily,
} from "./index.ts";

describe("persisted client state (spec §3)", () => {
  beforeEach(() => localStorage.clear());

  it("round-trips every key as JSON", () => {
    setItem("loginInfo", { userName: "ana", grantedPolicies: ["Message"], token: "t" });
    setItem("token", { accessToken: "a", refreshToken: "r", expiresAt: 5 });
    setItem("device", { id: "d1" });
    setItem("version", "1.2.3");
    setItem("family", { id: "f1", name: "Home" });
    setItem("wifi", { name: "net", password: "pw" });
    setItem("lang", "fr");
    expect(getItem("loginInfo")).toEqual({ userName: "ana", grantedPolicies: ["Message"], token: "t" });
    expect(getAccessToken()).toBe("a");
    expect(getItem("device")).toEqual({ id: "d1" });
    expect(getItem("version")).toBe("1.2.3");
    expect(getItem("family")).toEqual({ id: "f1", name: "Home" });
    expect(getItem("wifi")).toEqual({ name: "net", password: "pw" });
    expect(getItem("lang")).toBe("fr");
  });

  it("reads corrupt or wrongly shaped values as null and removes them", () => {
    localStorage.setItem("loginInfo", "{not json");
    expect(getItem("loginInfo")).toBeNull();
    expect(localStorage.getItem("loginInfo")).toBeNull();
    localStorage.setItem("token", JSON.stringify({ accessToken: 1 }));
    expect(getItem("token")).toBeNull();
    localStorage.setItem("lang", JSON.stringify("de"));
    expect(getItem("lang")).toBeNull();
  });

  it("remembers the selected family per user name", () => {
    setUserFamily("ana", "f1");
    setUserFamily("bo", "f2");
    setUserFamily("ana", "f3");
    expect(getUserFamily("ana")).toBe("f3");
    expect(getUserFamily("bo")).toBe("f2");
    expect(getUserFamily("cy")).toBeNull();
  });

  it("clearSession drops token, login info and device but keeps lang and the family cache", () => {
    setItem("token", { accessToken: "a", refreshToken: "r", expiresAt: 5 });
    setItem("loginInfo", { userName: "ana", grantedPolicies: [], token: "a" });
    setItem("device", { id: "d1" });
    setItem("lang", "en");
    setUserFamily("ana", "f1");
    clearSession();
    expect(getItem("token")).toBeNull();
    expect(getItem("loginInfo")).toBeNull();
    expect(getItem("device")).toBeNull();
    expect(getItem("lang")).toBe("en");
    expect(getUserFamily("ana")).toBe("f1");
  });

  it("removes the keys an earlier version kept, a Device screen's snapshot, at start-up and at sign-out", () => {
    const left = JSON.stringify({ v: 1, lang: "en", day: "2026-12-01", nodes: ["Kitchen softener"], deviceId: "d1" });
    localStorage.setItem("deviceSnapshot", left);
    setItem("lang", "en");
    removeRetiredKeys();
    expect(localStorage.getItem("deviceSnapshot")).toBeNull();
    expect(getItem("lang")).toBe("en");
    localStorage.setItem("deviceSnapshot", left);
    clearSession();
    expect(localStorage.getItem("deviceSnapshot")).toBeNull();
  });

  it("setItem(null) removes", () => {
    setItem("version", "1");
    setItem("version", null);
    expect(getItem("version")).toBeNull();
  });

  it('remembers the last Wi-Fi a setup succeeded with under "wifi" and offers its password only for that network', () => {
    expect(rememberedWifiPassword("Home")).toBe("");
    rememberWifi("Home 2.4", "s3cret pass");
    expect(JSON.parse(localStorage.getItem("wifi") ?? "null")).toEqual({ name: "Home 2.4", password: "s3cret pass" });
    expect(rememberedWifiPassword("Home 2.4")).toBe("s3cret pass");
    expect(rememberedWifiPassword("home 2.4")).toBe("");
    expect(rememberedWifiPassword("Office")).toBe("");
    expect(rememberedWifiPassword("")).toBe("");
    rememberWifi("Office", "x");
    expect(rememberedWifiPassword("Home 2.4")).toBe("");
    expect(rememberedWifiPassword("Office")).toBe("x");
    rememberWifi("  ", "ignored");
    expect(getItem("wifi")).toEqual({ name: "Office", password: "x" });
  });

  it("sign-out keeps the remembered Wi-Fi (spec §4 clears token, login info and device only)", () => {
    rememberWifi("Home", "pw");
    clearSession();
    expect(rememberedWifiPassword("Home")).toBe("pw");
  });
});
