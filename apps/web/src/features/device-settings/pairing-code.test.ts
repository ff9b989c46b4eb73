import { describe, expect, it } from "vitest";
import { formatMac, parsePairingCode } from "./pairing-code.ts";

describe("parsePairingCode", () => {
  it("reads MAC:SECRET with or without separators", () => {
    expect(parsePairingCode("0211AABBCCDD:s3cret-XYZ")).toEqual({ mac: "0211AABBCCDD", secret: "s3cret-XYZ" });
    expect(parsePairingCode(" 02:11:aa:bb:cc:dd:abc ")).toEqual({ mac: "0211AABBCCDD", secret: "abc" });
    expect(parsePairingCode("02-11-AA-BB-CC-DD:abc")).toEqual({ mac: "0211AABBCCDD", secret: "abc" });
  });
  it("keeps colons inside the secret", () => {
    expect(parsePairingCode("0211AABBCCDD:a:b")).toEqual({ mac: "0211AABBCCDD", secret: "a:b" });
  });
  it("refuses codes without a MAC or a secret", () => {
    expect(parsePairingCode("")).toBeNull();
    expect(parsePairingCode(null)).toBeNull();
    expect(parsePairingCode("0211AABBCCDD")).toBeNull();
    expect(parsePairingCode("0211AABBCCDD:")).toBeNull();
    expect(parsePairingCode("0211AABBCC:abc")).toBeNull();
    expect(parsePairingCode("ZZ11AABBCCDD:abc")).toBeNull();
    expect(parsePairingCode("0211AABBCCDD:has space")).toBeNull();
    expect(parsePairingCode("AQF1.abc.def")).toBeNull();
  });
  it("formats a MAC for display", () => {
    expect(formatMac("0211aabbccdd")).toBe("02:11:AA:BB:CC:DD");
    expect(formatMac("odd")).toBe("odd");
  });
});
