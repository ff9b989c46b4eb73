/**
 * The guard of the suites that need programs of the machine (required-programs.ts): a missing program fails under CI,
 * naming it and its Debian package, and is a skip that says why elsewhere; and the dynamic-security plugin is found
 * where the system says it is, whatever the architecture (mosquitto.ts `findDynsecPlugin`).
 */
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { findDynsecPlugin } from "./mosquitto.ts";
import { isCi, type Requirement, skipUnlessInstalled } from "./required-programs.ts";

const redis = (found: string | null): Requirement => ({
  program: "redis-server",
  found,
  debianPackage: "redis-server",
  alternative: "or set TEST_REDIS_URL",
});
const plugin = (found: string | null): Requirement => ({
  program: "Mosquitto's dynamic-security plugin",
  found,
  detail: "not in dpkg -L mosquitto",
  debianPackage: "mosquitto",
});

describe("skipUnlessInstalled", () => {
  it("runs the suite, silently, when everything is there, with or without CI", () => {
    const logged: string[] = [];
    for (const env of [{ CI: "true" }, {}]) {
      expect(
        skipUnlessInstalled("suite", [redis("/usr/bin/redis-server"), plugin("/x/p.so")], {
          env,
          log: (l) => logged.push(l),
        }),
      ).toBe(false);
    }
    expect(logged).toEqual([]);
  });

  it("under CI fails the file, naming the suite, each missing program and the Debian packages to install", () => {
    const logged: string[] = [];
    const guard = () =>
      skipUnlessInstalled("RedisBus", [redis(null), plugin(null), plugin("/x/p.so")], {
        env: { CI: "true" },
        log: (l) => logged.push(l),
      });
    expect(guard).toThrow(/^RedisBus: cannot run, and CI does not skip it: /);
    expect(guard).toThrow("redis-server is missing: apt-get install redis-server, or set TEST_REDIS_URL");
    expect(guard).toThrow(
      "Mosquitto's dynamic-security plugin is missing (not in dpkg -L mosquitto): apt-get install mosquitto",
    );
    expect(guard).toThrow("(all: apt-get install redis-server mosquitto); .ci/run installs them all.");
    expect(logged).toEqual([]);
  });

  it("without CI skips the suite and says why", () => {
    for (const env of [{}, { CI: "" }, { CI: "false" }, { CI: "0" }]) {
      const logged: string[] = [];
      expect(skipUnlessInstalled("RedisBus", [redis(null)], { env, log: (l) => logged.push(l) })).toBe(true);
      expect(logged).toEqual([
        "RedisBus: skipped, redis-server is missing: apt-get install redis-server, or set TEST_REDIS_URL " +
          "(with CI set this fails the run)",
      ]);
    }
  });

  it("reads CI as CI systems set it", () => {
    expect(isCi({ CI: "true" })).toBe(true);
    expect(isCi({ CI: "1" })).toBe(true);
    expect(isCi({ CI: "TRUE" })).toBe(true);
    expect(isCi({})).toBe(false);
    expect(isCi({ CI: "false" })).toBe(false);
    expect(isCi({ CI: "0" })).toBe(false);
    expect(isCi({ CI: "" })).toBe(false);
  });
});

describe("findDynsecPlugin", () => {
  const dirs: string[] = [];
  afterEach(() => {
    for (const dir of dirs.splice(0)) fs.rmSync(dir, { recursive: true, force: true });
  });
  /** A temp folder with an (empty) plugin file at `relative`; returns the folder and the file. */
  function pluginAt(relative: string): { root: string; file: string } {
    const root = fs.mkdtempSync(path.join(os.tmpdir(), "aquapilot-dynsec-"));
    dirs.push(root);
    const file = path.join(root, relative);
    fs.mkdirSync(path.dirname(file), { recursive: true });
    fs.writeFileSync(file, "");
    return { root, file };
  }

  it("takes the file that dpkg lists for the package, when it exists", () => {
    const { root, file } = pluginAt("lib/riscv64-linux-gnu/mosquitto_dynamic_security.so");
    const listing = ["/.", "/usr/sbin/mosquitto", "/usr/lib/none/mosquitto_dynamic_security.so", file, ""].join("\n");
    expect(findDynsecPlugin(() => listing, [path.join(root, "empty")])).toBe(file);
  });

  it("else searches the library folders and their subfolders, whatever the architecture's folder is called", () => {
    const { root, file } = pluginAt("lib/aarch64-linux-gnu/mosquitto_dynamic_security.so");
    expect(findDynsecPlugin(() => "", [path.join(root, "missing"), path.join(root, "lib")])).toBe(file);
    const flat = pluginAt("lib64/mosquitto_dynamic_security.so");
    expect(
      findDynsecPlugin(() => "/usr/lib/gone/mosquitto_dynamic_security.so\n", [path.join(flat.root, "lib64")]),
    ).toBe(flat.file);
  });

  it("is null when the plugin is nowhere", () => {
    const { root } = pluginAt("lib/x86_64-linux-gnu/libother.so");
    expect(findDynsecPlugin(() => "", [path.join(root, "lib")])).toBeNull();
  });
});
