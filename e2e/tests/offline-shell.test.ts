import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import zlib from "node:zlib";
import type { DevSystem } from "@aquapilot/dev";
import type { Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { injectShellManifest, PRECOMPRESS, type ShellManifest, shellManifest } from "../../apps/web/vite-delivery.ts";
import { launchPhone, newPageIn, type Phone, signInAsDemo, snap, UNREACHABLE_LOG } from "../support/browser.ts";
import { startTestSystem, WEB_DIST } from "../support/system.ts";

/** The shell manifest the build wrote into a worker's source (the object between its markers). */
function readShell(workerSource: string): ShellManifest {
  const match = workerSource.match(/\/\* shell-manifest \*\/ (.*?) \/\* end-shell-manifest \*\//);
  if (!match) throw new Error("sw.js has no shell manifest");
  return JSON.parse(match[1]) as ShellManifest;
}

/** Every file under `dir`, relative, with `/` separators. */
function listFiles(dir: string): string[] {
  return (fs.readdirSync(dir, { recursive: true }) as string[])
    .map((f) => f.split(path.sep).join("/"))
    .filter((f) => fs.statSync(path.join(dir, f)).isFile());
}

/** The names of the caches of the page's origin, and the URLs the shell cache `name` holds. */
function cacheState(page: Page, name: string): Promise<{ names: string[]; urls: string[] }> {
  return page.evaluate(async (n) => {
    const names = await caches.keys();
    const urls = names.includes(n) ? (await (await caches.open(n)).keys()).map((r) => r.url) : [];
    return { names, urls };
  }, name);
}

/**
 * The installed app's delivery in Chromium: the build's precompressed copies and the worker's shell list;
 * the service worker keeps the shell, so with the network off a reload of `#/login` still shows the Login screen from
 * the cache; a signed-in owner reopening the app offline keeps her sign-in (the route guard waits for the network
 * instead of signing out); and a new build's worker replaces the shell (its own cache, the older one deleted, the page
 * reloaded).
 * The system serves a copy of apps/web/dist, which the last test changes as a new build would.
 */
describe("the installed app's shell offline", () => {
  let system: DevSystem;
  let phone: Phone;
  let page: Page;
  let dist: string;
  let shell: ShellManifest;

  beforeAll(async () => {
    dist = fs.mkdtempSync(path.join(os.tmpdir(), "aq-dist-"));
    fs.cpSync(WEB_DIST, dist, { recursive: true });
    shell = readShell(fs.readFileSync(path.join(dist, "sw.js"), "utf8"));
    system = await startTestSystem({ SIM_DEVICES: "1" }, { webDistDir: dist });
    phone = await launchPhone("en-US");
    page = await newPageIn(phone.context, "en");
  });
  afterAll(async () => {
    await phone?.close();
    await system?.close();
    if (dist) fs.rmSync(dist, { recursive: true, force: true });
  });

  it("the build compresses every text file beside it and lists the whole shell in the worker", async () => {
    expect(shell.build).toMatch(/^[0-9a-f]{16}$/);
    const files = listFiles(dist);
    const expectedShell = files
      .filter((f) => f.startsWith("assets/") && !/\.(br|gz|map)$/.test(f))
      .concat(["index.html", "favicon.svg", "manifest.webmanifest"])
      .map((f) => `./${f}`)
      .sort();
    expect(shell.urls).toEqual(expectedShell);
    expect(shell.urls.some((u) => u.endsWith(".js"))).toBe(true);
    // Neither the worker nor version.json (revalidated, never kept): whole file names, not a hash that ends in "sw".
    expect(shell.urls.some((u) => /\/(version\.json|sw\.js)$/.test(u))).toBe(false);

    let compressed = 0;
    for (const file of files.filter((f) => PRECOMPRESS.test(f))) {
      const original = fs.readFileSync(path.join(dist, file));
      if (original.length < 1024) continue; // a copy that would not be smaller is left out
      const br = zlib.brotliDecompressSync(fs.readFileSync(path.join(dist, `${file}.br`)));
      const gz = zlib.gunzipSync(fs.readFileSync(path.join(dist, `${file}.gz`)));
      expect(br.equals(original), `${file}.br`).toBe(true);
      expect(gz.equals(original), `${file}.gz`).toBe(true);
      compressed++;
    }
    expect(compressed).toBeGreaterThan(10);

    // The server sends them: brotli for "/" (index.html's copy), revalidated; the worker itself never stored.
    for (const [url, cacheControl] of [
      ["/", "no-cache"],
      ["/sw.js", "no-cache"],
      [shell.urls.find((u) => u.endsWith(".js"))!.slice(1), "public, max-age=31536000, immutable"],
    ] as const) {
      const res = await fetch(`${system.url}${url}`, { headers: { "accept-encoding": "br" } });
      expect(res.status, url).toBe(200);
      expect(res.headers.get("content-encoding"), url).toBe("br");
      expect(res.headers.get("cache-control"), url).toBe(cacheControl);
      expect(res.headers.get("vary"), url).toMatch(/accept-encoding/i);
    }
  });

  it("shows the Login screen from the worker's cache with the network off", async () => {
    const cacheName = `aquapilot-shell-${shell.build}`;
    await page.goto(`${system.url}/#/login`);
    await page.getByTestId("login-screen").waitFor({ timeout: 15_000 });
    await page.waitForFunction(() => navigator.serviceWorker.controller !== null, undefined, { timeout: 15_000 });
    const expected = shell.urls.map((u) => new URL(u, `${system.url}/`).href).sort();
    await expect
      .poll(async () => (await cacheState(page, cacheName)).urls.sort(), { timeout: 20_000, interval: 250 })
      .toEqual(expected);

    const fromNetwork: string[] = [];
    const fromWorker: string[] = [];
    page.on("response", (res) => (res.fromServiceWorker() ? fromWorker : fromNetwork).push(res.url()));
    phone.expectErrors(UNREACHABLE_LOG, "the test turns the network off");
    await phone.context.setOffline(true);
    try {
      await page.reload();
      await page.getByTestId("login-screen").waitFor({ timeout: 15_000 });
      expect(await page.getByTestId("login-submit").isVisible()).toBe(true);
    } finally {
      await phone.context.setOffline(false);
    }
    // The page and its code came from the worker; nothing of the shell from the network.
    expect(fromWorker).toContain(`${system.url}/`);
    expect(fromWorker.filter((u) => u.includes("/assets/")).length).toBeGreaterThan(0);
    expect(fromNetwork.filter((u) => u.includes("/assets/") || u === `${system.url}/`)).toEqual([]);

    // Only the shell is ever stored: never the API, version.json or anything else the app fetched.
    const state = await cacheState(page, cacheName);
    expect(state.names).toEqual([cacheName]);
    expect(state.urls.filter((u) => !expected.includes(u))).toEqual([]);
  });

  it("a new build's worker takes over with its own cache, deletes the old one and reloads the page", async () => {
    const oldCache = `aquapilot-shell-${shell.build}`;
    // A new build: another index.html, so another shell manifest in the worker (as vite-delivery.ts writes it).
    const indexFile = path.join(dist, "index.html");
    fs.writeFileSync(indexFile, fs.readFileSync(indexFile, "utf8").replace("</head>", "<!-- next build -->\n</head>"));
    const shellFiles = new Map(shell.urls.map((u) => [u.slice(2), fs.readFileSync(path.join(dist, u.slice(2)))]));
    const next = shellManifest(shellFiles);
    expect(next.build).not.toBe(shell.build);
    const worker = path.join(dist, "sw.js");
    fs.writeFileSync(worker, injectShellManifest(fs.readFileSync(worker, "utf8"), next));
    for (const stale of ["index.html.br", "index.html.gz", "sw.js.br", "sw.js.gz"])
      fs.rmSync(path.join(dist, stale), { force: true });

    await page.evaluate(() => {
      (window as unknown as { beforeUpdate: boolean }).beforeUpdate = true;
    });
    await page.evaluate(async () => {
      await (await navigator.serviceWorker.getRegistration())?.update();
    });
    // The new worker took over: the page reloaded (its marker is gone) and shows the app again.
    await expect
      .poll(() => page.evaluate(() => (window as unknown as { beforeUpdate?: boolean }).beforeUpdate ?? false), {
        timeout: 20_000,
        interval: 250,
      })
      .toBe(false);
    await page.getByTestId("login-screen").waitFor({ timeout: 15_000 });
    const newCache = `aquapilot-shell-${next.build}`;
    await expect
      .poll(async () => (await cacheState(page, newCache)).names, { timeout: 20_000, interval: 250 })
      .toEqual([newCache]);
    expect((await cacheState(page, newCache)).names).not.toContain(oldCache);
    const cachedIndex = await page.evaluate(
      async ({ name, url }) => (await (await caches.open(name)).match(url))?.text(),
      { name: newCache, url: `${system.url}/index.html` },
    );
    expect(cachedIndex).toContain("<!-- next build -->");
  });

  it("signed in and reopened offline on a guarded screen: the sign-in stays, the screen comes when the network does", async () => {
    await signInAsDemo(page, system.url);
    await page.evaluate(() => {
      window.location.hash = "#/FamilyList";
    });
    await page.getByTestId("family-list").waitFor({ timeout: 15_000 });
    phone.expectErrors(UNREACHABLE_LOG, "the test turns the network off");
    await phone.context.setOffline(true);
    try {
      await page.reload();
      // Nothing could be asked: the app says why and waits; it does not sign the owner out.
      await expect
        .poll(() => page.locator(".adm-toast-main").allTextContents(), { timeout: 10_000 })
        .toContain("No network connection");
      await page.getByTestId("link-banner").waitFor({ timeout: 5_000 });
      expect(await page.getByTestId("login-screen").count()).toBe(0);
      await snap(page, "offline-reopened-signed-in");
      expect(await page.evaluate(() => localStorage.getItem("token") !== null)).toBe(true);
      expect(await page.evaluate(() => location.hash)).toBe("#/FamilyList");
    } finally {
      await phone.context.setOffline(false);
    }
    await page.getByTestId("family-list").waitFor({ timeout: 15_000 });
    expect(await page.evaluate(() => location.hash)).toBe("#/FamilyList");
  });
});
