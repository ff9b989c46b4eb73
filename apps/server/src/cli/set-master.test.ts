import { execFile } from "node:child_process";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import { endpoints } from "@aquapilot/contract";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
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
    // A short cache lifetime: the CLI runs in its own process, off the server's bus, so a server sees its change
    // only when AUTH_CACHE_MS has run out.
    t = await createTestApp({ env: { AUTH_CACHE_MS: "300" } });
    await registerByEmail(t.app, "master@example.com", "master-pass");
    await registerByEmail(t.app, "plain@example.com", "plain-pass");
  });
  afterAll(() => t.close());

  it("nobody holds master by default; a master holds every permission including master, at once (bus user.changed)", async () => {
    const m = await signIn(t.app, "master@example.com", "master-pass");
    const p = await signIn(t.app, "plain@example.com", "plain-pass");
    expect((await policies(m.access)).master).toBeUndefined();
    expect(await setMaster(t.db, " Master@Example.com ", true, t.bus)).toBe(true);
    const granted = await policies(m.access);
    expect(granted.master).toBe(true);
    expect(Object.keys(granted).sort()).toEqual(
      ["AfterSale", "Device.Control", "Device.Setting", "Device.View", "Family.Manage", "Message", "master"].sort(),
    );
    expect((await policies(p.access)).master).toBeUndefined();
    expect(await setMaster(t.db, "master@example.com", false, t.bus)).toBe(true);
    expect((await policies(m.access)).master).toBeUndefined();
    expect(await setMaster(t.db, "nobody@example.com", true, t.bus)).toBe(false);
  });

  it("the CLI sets and clears the flag on the configured database, seen within AUTH_CACHE_MS; exit 1 for an unknown e-mail", async () => {
    // The script opens the test app's own database: its PostgreSQL database, else the SQLite file in DATA_DIR.
    const databaseUrl = t.database.databaseUrl ?? "";
    const env = { ...process.env, DATA_DIR: t.config.DATA_DIR, DATABASE_URL: databaseUrl, LOG_LEVEL: "silent" };
    const on = await run(process.execPath, [SCRIPT, "plain@example.com"], { env });
    expect(on.stdout).toContain("plain@example.com is now a device master");
    const p = await signIn(t.app, "plain@example.com", "plain-pass");
    expect((await policies(p.access)).master).toBe(true);
    await run(process.execPath, [SCRIPT, "plain@example.com", "--off"], { env });
    // No event reaches this process from the script's: the cached check goes after its 300 ms.
    await vi.waitFor(async () => expect((await policies(p.access)).master).toBeUndefined(), {
      timeout: 2000,
      interval: 50,
    });
    await expect(run(process.execPath, [SCRIPT, "ghost@example.com"], { env })).rejects.toMatchObject({ code: 1 });
    await expect(run(process.execPath, [SCRIPT], { env })).rejects.toMatchObject({ code: 2 });
  });
});
