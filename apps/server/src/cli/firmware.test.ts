import { generateKeyPairSync } from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestApp, type TestApp } from "../../test/helpers.ts";
import { rawPublicKeyBase64 } from "../modules/firmware/index.ts";
import { runFirmwareCli } from "./firmware.ts";

describe("npm run firmware (signed firmware images)", () => {
  let t: TestApp;
  let dir: string;
  const vendor = generateKeyPairSync("ed25519");
  beforeAll(async () => {
    t = await createTestApp();
    dir = fs.mkdtempSync(path.join(t.config.DATA_DIR, "cli-"));
    fs.writeFileSync(path.join(dir, "image.bin"), Buffer.alloc(4096, 0x5a));
    fs.writeFileSync(path.join(dir, "vendor.key"), vendor.privateKey.export({ format: "pem", type: "pkcs8" }));
  });
  afterAll(() => t.close());

  const run = async (argv: string[], env: Partial<TestApp["config"]> = {}) => {
    const out: string[] = [];
    const err: string[] = [];
    const code = await runFirmwareCli(
      argv,
      { out: (s) => out.push(s), err: (s) => err.push(s) },
      { config: { ...t.config, ...env }, db: async () => t.db },
    );
    return { code, out: out.join(""), err: err.join("") };
  };
  const file = () => path.join(dir, "image.bin");

  it("refuses an unsigned upload and a signature by an untrusted key, with the reason", async () => {
    const unsigned = await run(["upload", "--model", "AQ-S25", "--version", "1.2.0", "--file", file()]);
    expect(unsigned).toMatchObject({
      code: 1,
      err: "refused: The firmware image has no signature. Sign it with the vendor's key.\n",
    });
    const signed = JSON.parse((await run(["sign", "--key", path.join(dir, "vendor.key"), "--file", file()])).out);
    expect(signed).toMatchObject({ size: 4096, publicKey: rawPublicKeyBase64(vendor.publicKey) });
    const untrusted = await run([
      "upload",
      "--model",
      "AQ-S25",
      "--version",
      "1.2.0",
      "--file",
      file(),
      "--signature",
      signed.signature,
    ]);
    expect(untrusted.code).toBe(1);
    expect(untrusted.err).toMatch(/not valid/);
    expect((await run(["list"])).out).toBe("no firmware images\n");
  });

  it("uploads an image signed offline by a configured vendor key, and one signed with the development key", async () => {
    const signed = JSON.parse((await run(["sign", "--key", path.join(dir, "vendor.key"), "--file", file()])).out);
    const env = { FIRMWARE_SIGNING_PUBLIC_KEYS: signed.publicKey };
    const stored = await run(
      [
        "upload",
        "--model",
        "AQ-S25",
        "--version",
        "1.2.0",
        "--file",
        file(),
        "--signature",
        signed.signature,
        "--sha256",
        signed.sha256,
        "--size",
        "4096",
      ],
      env,
    );
    expect(stored).toMatchObject({ code: 0, out: `stored AQ-S25 1.2.0: 4096 bytes, sha256 ${signed.sha256}\n` });
    const dev = await run([
      "upload",
      "--model",
      "AQ-S25",
      "--version",
      "1.3.0",
      "--file",
      file(),
      "--sign-with-dev-key",
    ]);
    expect(dev.code).toBe(0);
    expect(
      (
        await run(["upload", "--model", "AQ-S25", "--version", "1.4.0", "--file", file(), "--sign-with-dev-key"], {
          APP_ENV: "production",
        })
      ).code,
    ).toBe(2);
    const list = JSON.parse((await run(["list", "--json"])).out) as Array<{ version: string }>;
    expect(list.map((i) => i.version)).toEqual(["1.3.0", "1.2.0"]);
    expect((await run(["upload", "--model", "AQ-S25"])).code).toBe(2);
    expect((await run(["frobnicate"])).code).toBe(2);
  });
});
