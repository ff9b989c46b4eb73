import { execFile } from "node:child_process";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import { endpoints } from "@aquapilot/contract";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { call } from "../../test/call.ts";
import { createTestApp, registerByEmail, type TestApp } from "../../test/helpers.ts";
import { signIn } from "../modules/profile/testing.ts";
import { setMaster } from "./set-master.ts";

const run = promisify(execFile);
const SCRIPT = fileURLToPath(new URL("./set-master.ts", import.meta.url));

describe("device master (spec §6): only the operator script grants it", () => {
  let t: TestApp;
  const policies = async (token: string) =>
    (await call(t.app, endpoints.applicationConfiguration, { as: token })).result.auth.grantedPolicies;

  beforeAll(async () => {
    t = await createTestApp();
    await registerByEmail(t.app, "master@example.com", "master-pass");
    await registerByEmail(t.app, "plain@example.com", "plain-pass");
  });
  afterAll(() => t.close());

  it("nobody holds master by default; a master holds every permission including master, at once", async () => {
    const m = await signIn(t.app, "master@example.com", "master-pass");
    const p = await signIn(t.app, "plain@example.com", "plain-pass");
    expect((await policies(m.access)).master).toBeUndefined();
    expect(await setMaster(t.db, " Master@Example.com ", true)).toBe(true);
    const granted = await policies(m.access);
    expect(granted.master).toBe(true);
    expect(Object.keys(granted).sort()).toEqual(
      ["AfterSale", "Device.Control", "Device.Setting", "Device.View", "Family.Manage", "Message", "master"].sort(),
    );
    expect((await policies(p.access)).master).toBeUndefined();
    expect(await setMaster(t.db, "master@example.com", false)).toBe(true);
    expect((await policies(m.access)).master).toBeUndefined();
    expect(await setMaster(t.db, "nobody@example.com", true)).toBe(false);
  });

  it("the CLI sets and clears the flag on the configured database; exit 1 for an unknown e-mail", async () => {
    const env = { ...process.env, DATA_DIR: t.config.DATA_DIR, DATABASE_URL: "", LOG_LEVEL: "silent" };
    const on = await run(process.execPath, [SCRIPT, "plain@example.com"], { env });
    expect(on.stdout).toContain("plain@example.com is now a device master");
    const p = await signIn(t.app, "plain@example.com", "plain-pass");
    expect((await policies(p.access)).master).toBe(true);
    await run(process.execPath, [SCRIPT, "plain@example.com", "--off"], { env });
    expect((await policies(p.access)).master).toBeUndefined();
    await expect(run(process.execPath, [SCRIPT, "ghost@example.com"], { env })).rejects.toMatchObject({ code: 1 });
    await expect(run(process.execPath, [SCRIPT], { env })).rejects.toMatchObject({ code: 2 });
  });
});
