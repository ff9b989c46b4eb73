import { describe, expect, it } from "vitest";
import { classifyScannedCode, parsePairingCode } from "./classify.ts";

describe("classifyScannedCode", () => {
  it("recognises a household share code", () => {
    expect(classifyScannedCode("  AQF1.eyJmIjoiMSJ9.c2ln \n")).toEqual({
      kind: "family",
      code: "AQF1.eyJmIjoiMSJ9.c2ln",
    });
  });

  it("recognises a device pairing code in every MAC spelling", () => {
    for (const text of ["0211AABBCCDD:s3cret", "02:11:aa:bb:cc:dd:s3cret", "02-11-AA-BB-CC-DD:s3cret"]) {
      expect(classifyScannedCode(text)).toEqual({ kind: "device", code: text, mac: "0211AABBCCDD", secret: "s3cret" });
    }
  });

  it("keeps the trimmed code of a pairing code", () => {
    expect(classifyScannedCode(" 0211AABBCCDD:x ")).toMatchObject({ kind: "device", code: "0211AABBCCDD:x" });
  });

  it("answers unknown for anything else", () => {
    for (const text of [
      "",
      "   ",
      null,
      undefined,
      "AQF1.",
      "aqf2.abc.def",
      "https://example.com",
      "0211AABBCCDD",
      "0211AABBCCDD:",
      "0211AABBCC:secret",
      "0211AABBCCDDEE:secret",
      "0211AABBCCGG:secret",
      "0211AABBCCDD:two words",
    ]) {
      expect(classifyScannedCode(text).kind).toBe("unknown");
    }
  });

  it("does not take a share code for a pairing code", () => {
    expect(parsePairingCode("AQF1.abc.def")).toBeNull();
    expect(classifyScannedCode("AQF1.abc.def").kind).toBe("family");
  });
});
