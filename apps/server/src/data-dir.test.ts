import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { endpoints } from "@aquapilot/contract";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { signUpUser } from "../test/api-factories.ts";
import { multipartBody, PNG_1X1 } from "../test/api-fuzz-cases.ts";
import { call } from "../test/call.ts";
import { createTestApp, type TestApp } from "../test/helpers.ts";
import { loadOrCreateSecret } from "./auth/secrets.ts";
import { ensurePrivateDir, ensurePrivateFile } from "./data-dir.ts";
import { openDatabase } from "./db/index.ts";

/** The permission bits of `target` (0o700, 0o600, …). */
const modeOf = (target: string) => fs.statSync(target).mode & 0o777;

describe("DATA_DIR is the server's alone: folders 0700, files 0600", () => {
  let root: string;
  let previousUmask: number;
  beforeAll(() => {
    root = fs.mkdtempSync(path.join(os.tmpdir(), "aq-data-dir-"));
    // The usual umask of a service: without care, files come out 0644 and folders 0755.
    previousUmask = process.umask(0o022);
  });
  afterAll(() => {
    process.umask(previousUmask);
    fs.rmSync(root, { recursive: true, force: true });
  });

  it("creates a new DATA_DIR, its SQLite database and the database's WAL and shared-memory files owner-only", async () => {
    const dataDir = path.join(root, "fresh", "data");
    const { db } = await openDatabase({ dataDir });
    // Migrations wrote through the WAL: the -wal and -shm files exist while the database is open.
    const files = ["aquapilot.sqlite", "aquapilot.sqlite-wal", "aquapilot.sqlite-shm"].map((f) =>
      path.join(dataDir, f),
    );
    try {
      expect(modeOf(dataDir)).toBe(0o700);
      for (const file of files) expect([file, modeOf(file)]).toEqual([file, 0o600]);
    } finally {
      await db.destroy();
    }
  });

  it("narrows a DATA_DIR and a database file left world-readable by an older version", async () => {
    const dataDir = path.join(root, "old");
    fs.mkdirSync(dataDir, { mode: 0o755 });
    fs.writeFileSync(path.join(dataDir, "aquapilot.sqlite"), "", { mode: 0o644 });
    expect(modeOf(dataDir)).toBe(0o755);
    const { db } = await openDatabase({ dataDir });
    await db.destroy();
    expect(modeOf(dataDir)).toBe(0o700);
    expect(modeOf(path.join(dataDir, "aquapilot.sqlite"))).toBe(0o600);
  });

  it("keeps the key files 0600 in an owner-only folder", () => {
    const dataDir = path.join(root, "keys");
    loadOrCreateSecret(dataDir, "jwt-signing-key");
    expect(modeOf(dataDir)).toBe(0o700);
    expect(modeOf(path.join(dataDir, "jwt-signing-key"))).toBe(0o600);
  });

  it("ensurePrivateFile and ensurePrivateDir leave an existing file's content alone", () => {
    const file = path.join(root, "kept", "note");
    ensurePrivateDir(path.dirname(file));
    fs.writeFileSync(file, "content", { mode: 0o666 });
    ensurePrivateFile(file);
    expect(fs.readFileSync(file, "utf8")).toBe("content");
    expect(modeOf(file)).toBe(0o600);
  });
});

describe("uploads under DATA_DIR", () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(() => t.close());

  it("stores an owner's image and avatar 0600 in 0700 folders", async () => {
    const owner = await signUpUser(t.app, "modes@files.test");
    const { payload, contentType } = multipartBody([
      { name: "file", filename: "a.png", type: "image/png", data: PNG_1X1 },
    ]);
    const image = await call(t, endpoints.uploadFile, {
      as: owner,
      body: payload,
      headers: { "content-type": contentType },
    });
    expect(image.status).toBe(200);
    const avatar = await call(t, endpoints.uploadAvatar, {
      as: owner,
      body: payload,
      headers: { "content-type": contentType },
    });
    expect(avatar.status).toBe(200);
    const uploads = path.join(t.config.DATA_DIR, "uploads");
    for (const folder of [uploads, path.join(uploads, "files"), path.join(uploads, "avatars")])
      expect([folder, modeOf(folder)]).toEqual([folder, 0o700]);
    for (const url of [image.result.fileUrl, avatar.result]) {
      const file = path.join(t.config.DATA_DIR, url);
      expect([file, modeOf(file)]).toEqual([file, 0o600]);
    }
  });
});
