import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { DEMO_ACCOUNT } from "@aquapilot/dev";
import { type BrowserContext, type ConsoleMessage, chromium, type Page, type Request } from "playwright-core";
import { afterAll, afterEach, beforeEach } from "vitest";

/** Debian's Chromium (apt-get install chromium); CHROMIUM_PATH overrides. */
export const CHROMIUM_PATH = process.env.CHROMIUM_PATH ?? "/usr/bin/chromium";

/** Flags that keep headless Chromium off the network beyond loopback (see the node machine notes). */
const FLAGS = [
  "--headless",
  "--no-sandbox",
  "--disable-gpu",
  "--disable-quic",
  "--no-first-run",
  "--disable-background-networking",
  "--disable-component-update",
  "--disable-sync",
];

/**
 * One error a page of a phone reported: an uncaught exception (`pageerror`), a console message of type "error"
 * (Chromium also logs every failed load and every 4xx/5xx answer there, as "Failed to load resource: …"), or a
 * request that failed for another reason than being cancelled (`requestfailed` other than net::ERR_ABORTED).
 */
export interface PageFault {
  kind: "pageerror" | "console" | "requestfailed";
  /** The URL of the page that reported it ("" before the page's first navigation). */
  page: string;
  /** The message; for a console message its source location is appended, for a failed request method, URL and reason. */
  text: string;
}

/**
 * The SignalR client's own log line when the server closes a hub connection because an access ended: the sign-in
 * (signed out, "The session has ended"), the user's access (password changed elsewhere) or the access to a household
 * (removed from it). The app handles each ending (shared/realtime/session-end.ts), yet the client library logs the
 * close at level Error, which the app's Warning threshold lets through; and when the ending comes while a hub is still
 * starting (reconnecting), the app stops it and the client logs that the start was cut short (before or during its
 * negotiation). For
 * {@link Phone.expectErrors} in the tests that end an access while a hub is connected.
 */
export const HUB_ENDED_LOG =
  /^\[[^\]]+\] Error: (Connection disconnected with error 'Error: Server returned an error on close: (The session has ended|The user's access has ended|Access to a household has ended)\.'|Failed to start the HttpConnection before stop\(\) was called\.|Failed to start the connection: Error: The connection was stopped during negotiation\.)/;

/**
 * What a phone logs while it cannot reach the server (the network off, the server away): its failed loads
 * (net::ERR_INTERNET_DISCONNECTED, refused, reset or aborted connections, a socket closed under a request) and the
 * SignalR client's own lines about the hub connection that dropped (WebSocket close 1006) or cannot start again.
 * For {@link Phone.expectErrors} in the tests that take the network or the server away.
 */
export const UNREACHABLE_LOG =
  /net::ERR_(INTERNET_DISCONNECTED|CONNECTION_REFUSED|CONNECTION_RESET|CONNECTION_CLOSED|CONNECTION_ABORTED|EMPTY_RESPONSE|SOCKET_NOT_CONNECTED)\b|^\[[^\]]+\] Error: (Failed to complete negotiation with the server|Failed to start the connection|Connection disconnected with error 'Error: WebSocket closed with status code: 1006)/;

/** An error a test causes on purpose: faults whose text matches `pattern` are not reported; `reason` says why. */
interface Allowance {
  pattern: RegExp;
  reason: string;
  /** "test": dropped when the test that declared it ends; "phone": kept until the phone is closed. */
  scope: "test" | "phone";
}

/** A phone: its browser context, its error guard and the close function. */
export interface Phone {
  context: BrowserContext;
  /** Closes the browser and removes the profile folder; faults not yet checked are still reported after the test. */
  close: () => Promise<void>;
  /**
   * Declares errors the calling test causes on purpose (a stopped server, a refused password): faults whose text
   * matches `pattern` are not reported. Called inside a test, the allowance ends with that test; called in a
   * `beforeAll`, it lasts as long as the phone. Keep the pattern narrow and give the reason.
   */
  expectErrors: (pattern: RegExp, reason: string) => void;
  /** Returns the unexpected faults seen since the last check and forgets them (the guard's own check uses it). */
  unexpectedErrors: () => PageFault[];
}

/** Phones of this test file not yet checked to the end (a closed phone stays until its last faults are reported). */
const guarded = new Set<{
  drain: () => PageFault[];
  declared: () => Allowance[];
  endTest: () => void;
  closed: boolean;
}>();

/**
 * The faults of every phone of the file, as one message ("" when there is none) that also lists the errors declared
 * as expected, and forgets them; allowances of the test that ends are dropped.
 */
function drainAll(): string {
  const lines: string[] = [];
  const declared = new Set<string>();
  for (const g of guarded) {
    for (const f of g.drain()) lines.push(`  [${f.kind}] ${f.page || "(no page yet)"}: ${f.text}`);
    for (const a of g.declared()) declared.add(`  ${a.pattern} (${a.reason})`);
    g.endTest();
    if (g.closed) guarded.delete(g);
  }
  if (lines.length === 0) return "";
  const allowed = declared.size > 0 ? `\nexpected, as declared:\n${[...declared].join("\n")}` : "";
  return `${lines.length} unexpected browser error(s) (declare the ones a test causes with phone.expectErrors):\n${lines.join("\n")}${allowed}`;
}

/** The requests each watched page has started and not yet ended, each with the promise of its end. */
const openRequests = new WeakMap<Page, Map<Request, { ended: Promise<void>; end: () => void }>>();

/** Follows the requests of `page` from start to end (finished or failed), for {@link settled}. */
function trackRequests(page: Page): void {
  const open = new Map<Request, { ended: Promise<void>; end: () => void }>();
  openRequests.set(page, open);
  page.on("request", (r) => {
    let end = () => {};
    const ended = new Promise<void>((resolve) => {
      end = resolve;
    });
    open.set(r, { ended, end });
  });
  const close = (r: Request) => {
    open.get(r)?.end();
    open.delete(r);
  };
  page.on("requestfinished", close);
  page.on("requestfailed", close);
}

/**
 * Waits until every request `page` had started when called has ended (finished or failed), then for two animation
 * frames (unless the page went on to another document meanwhile), so what their answers cause has happened (a
 * render, an effect that would send the next request). The barrier a check that something did NOT happen rests on,
 * instead of a fixed sleep: wait for what would have caused the wrong outcome, then assert. Requests started later
 * are not waited for.
 * @param page a page of a phone from {@link launchPhone} (its requests are followed from its start).
 * @param opts `timeoutMs`: how long those requests may still take, ms (default 15 000); `except`: URLs not waited
 *   for (a request the test itself holds).
 * @throws when `page` is not followed, or a request is still open after `timeoutMs` (its method and URL named).
 */
export async function settled(page: Page, opts: { timeoutMs?: number; except?: RegExp } = {}): Promise<void> {
  const { timeoutMs = 15_000, except } = opts;
  const open = openRequests.get(page);
  if (!open) throw new Error("settled: the page is not one of a phone from launchPhone");
  const waiting = [...open].filter(([r]) => !except?.test(r.url()));
  let timer: ReturnType<typeof setTimeout> | undefined;
  const late = new Promise<"late">((resolve) => {
    timer = setTimeout(() => resolve("late"), timeoutMs);
  });
  const outcome = await Promise.race([Promise.all(waiting.map(([, w]) => w.ended)), late]);
  clearTimeout(timer);
  if (outcome === "late") {
    const still = waiting.filter(([r]) => open.has(r)).map(([r]) => `${r.method()} ${r.url()}`);
    throw new Error(`settled: after ${timeoutMs} ms still open: ${still.join(", ")}`);
  }
  await page
    .evaluate(() => new Promise<void>((resolve) => requestAnimationFrame(() => requestAnimationFrame(() => resolve()))))
    .catch((err: Error) => {
      // The page went on to another document meanwhile: nothing of the old one can still happen.
      if (!/Execution context was destroyed|navigat/i.test(err.message)) throw err;
    });
}

/** True from the start of each test (its `beforeEach` hooks included) to its end; false in `beforeAll`/`afterAll`. */
let inTest = false;
beforeEach(() => {
  inTest = true;
});

/*
 * The guard's check, registered on the file that imports this module (every browser test file does, through
 * launchPhone): after each test, the errors its phones reported (and those of hooks before it) fail that test; after
 * the file, those reported since (the last hooks, closing) fail the file. Nothing in a test file has to call it.
 */
afterEach(() => {
  inTest = false;
  const report = drainAll();
  if (report) throw new Error(report);
});
afterAll(() => {
  const report = drainAll();
  guarded.clear();
  if (report) throw new Error(report);
});

/** The text of a console message with where it came from (the failed resource's URL for "Failed to load resource"). */
function consoleText(msg: ConsoleMessage): string {
  const at = msg.location();
  return at.url ? `${msg.text()} (at ${at.url}${at.lineNumber ? `:${at.lineNumber}` : ""})` : msg.text();
}

/** The text of a failed request, or null when it was only cancelled (navigation away, AbortController, a replaced image). */
function failedText(request: Request): string | null {
  const reason = request.failure()?.errorText ?? "unknown";
  return reason === "net::ERR_ABORTED" ? null : `request failed: ${request.method()} ${request.url()} ${reason}`;
}

/**
 * Starts Chromium with a fresh profile at a phone-sized viewport (375×812, the design width), with an error guard:
 * every page of the context, the open ones and those opened later, is watched for uncaught exceptions, console errors
 * and failed requests ({@link PageFault}); after each test of the file the unexpected ones fail the test, listed with
 * their page URL and text, and after the file those reported since. A test declares the errors it causes with
 * `phone.expectErrors(pattern, reason)`.
 * @param locale Accept-Language / navigator.language of the browser, e.g. "en" or "zh-CN".
 * @param opts `bluetooth`: turn Web Bluetooth on (`--enable-features=WebBluetooth`), for the network-setup tests
 *   whose peripheral Chromium's BluetoothEmulation plays (support/bluetooth.ts).
 * @returns the phone: its context, its guard and a close function that also removes the profile folder.
 * @throws when Chromium is not installed at {@link CHROMIUM_PATH}.
 */
export async function launchPhone(locale = "en", opts: { bluetooth?: boolean } = {}): Promise<Phone> {
  if (!fs.existsSync(CHROMIUM_PATH))
    throw new Error(`Chromium not found at ${CHROMIUM_PATH}: apt-get install -y chromium`);
  const profile = fs.mkdtempSync(path.join(os.tmpdir(), "aq-chromium-"));
  const context = await chromium.launchPersistentContext(profile, {
    executablePath: CHROMIUM_PATH,
    headless: true,
    args: opts.bluetooth ? [...FLAGS, "--enable-features=WebBluetooth"] : FLAGS,
    viewport: { width: 375, height: 812 },
    deviceScaleFactor: 2,
    isMobile: true,
    hasTouch: true,
    locale,
  });
  let faults: PageFault[] = [];
  let allowances: Allowance[] = [];
  const note = (page: Page, kind: PageFault["kind"], text: string) => {
    if (!allowances.some((a) => a.pattern.test(text))) faults.push({ kind, page: page.url(), text });
  };
  const watch = (page: Page) => {
    trackRequests(page);
    // An exception without a stack (a DOMException, a thrown non-Error) still says its name and message.
    page.on("pageerror", (e) => note(page, "pageerror", e.stack || `${e.name}: ${e.message}` || String(e)));
    page.on("console", (msg) => {
      if (msg.type() === "error") note(page, "console", consoleText(msg));
    });
    page.on("requestfailed", (r) => {
      const text = failedText(r);
      if (text) note(page, "requestfailed", text);
    });
  };
  for (const page of context.pages()) watch(page);
  context.on("page", watch);
  const guard = {
    closed: false,
    drain: () => {
      const seen = faults;
      faults = [];
      return seen;
    },
    declared: () => allowances,
    endTest: () => {
      allowances = allowances.filter((a) => a.scope === "phone");
    },
  };
  guarded.add(guard);
  return {
    context,
    close: async () => {
      await context.close();
      guard.closed = true;
      fs.rmSync(profile, { recursive: true, force: true });
    },
    expectErrors: (pattern, reason) => {
      if (!reason.trim()) throw new Error("expectErrors needs the reason the errors are expected");
      // a global pattern would remember where its last match ended; the guard tests each text from its start
      const once = new RegExp(pattern.source, pattern.flags.replace("g", ""));
      allowances.push({ pattern: once, reason, scope: inTest ? "test" : "phone" });
    },
    unexpectedErrors: guard.drain,
  };
}

/** Saves a screenshot under e2e/screenshots/<name>.png (kept for a person to look at; git-ignored). */
export async function snap(page: Page, name: string): Promise<string> {
  const dir = path.join(import.meta.dirname, "..", "screenshots");
  fs.mkdirSync(dir, { recursive: true });
  const file = path.join(dir, `${name}.png`);
  await page.screenshot({ path: file });
  return file;
}

/**
 * Stores the app's language `lang` (localStorage "lang", what the app's language setting writes, spec §1/§4) before
 * any script of each page of `target` runs; with `keep`, only where none is stored yet (a language the test chose
 * on a screen stays). Pages without a storage of their own (about:blank, where a new page starts) are left alone:
 * localStorage throws a SecurityError there.
 */
export async function storeLanguage(target: BrowserContext | Page, lang: string, opts: { keep?: boolean } = {}) {
  await target.addInitScript(
    ([l, keep]) => {
      if (!location.protocol.startsWith("http")) return;
      if (!keep || !localStorage.getItem("lang")) localStorage.setItem("lang", JSON.stringify(l));
    },
    [lang, opts.keep === true] as const,
  );
}

/** A new page of `context` with the app in `lang` (stored under `lang` before the app starts, spec §1/§4). */
export async function newPageIn(context: BrowserContext, lang: string): Promise<Page> {
  const page = await context.newPage();
  await storeLanguage(page, lang);
  return page;
}

/**
 * The harshest double tap: two clicks on the element with `data-testid=testId` in one task, so the app cannot
 * re-render (and disable the button) in between — what a fast finger on a slow phone does.
 */
export async function doubleTap(page: Page, testId: string): Promise<void> {
  await page.getByTestId(testId).waitFor();
  await page.evaluate((id) => {
    const el = document.querySelector<HTMLElement>(`[data-testid="${id}"]`);
    if (!el) throw new Error(`no element ${id}`);
    el.click();
    el.click();
  }, testId);
}

/**
 * Signs the demo owner in through the Login screen (the embedded demo account) and waits for Home.
 * @param baseUrl the running system's URL.
 */
export async function signInAsDemo(page: Page, baseUrl: string): Promise<void> {
  await page.goto(`${baseUrl}/#/login`);
  await page.getByTestId("login-account").fill(DEMO_ACCOUNT.email);
  await page.getByTestId("login-password").fill(DEMO_ACCOUNT.password);
  await page.getByTestId("login-submit").click();
  await page.getByTestId("home-screen").waitFor({ timeout: 15_000 });
}

/**
 * Holds every request of `page` whose URL matches `url` until the returned function is called, then lets them through
 * (a slow network for that file or call, under the test's control).
 */
export async function holdRoute(page: Page, url: RegExp): Promise<() => void> {
  let release = () => {};
  const held = new Promise<void>((r) => {
    release = r;
  });
  await page.route(url, async (route) => {
    await held;
    await route.continue();
  });
  return release;
}

/** Removes the page's service workers, so the next load's files come from the network, where a test can hold them. */
export async function withoutWorker(page: Page): Promise<void> {
  await page.evaluate(async () => {
    for (const r of await navigator.serviceWorker.getRegistrations()) await r.unregister();
  });
}

/**
 * Collects every Content-Security-Policy violation of `context`'s pages into `into`, as "directive blocked-URI or
 * sample" (the page's `securitypolicyviolation` events, reported through a binding).
 */
export async function collectCspViolations(context: BrowserContext, into: string[]): Promise<void> {
  await context.exposeBinding("__reportCsp", (_s, v: string) => {
    into.push(v);
  });
  await context.addInitScript(() => {
    document.addEventListener("securitypolicyviolation", (e) => {
      const report = (window as unknown as { __reportCsp: (v: string) => void }).__reportCsp;
      void report(`${e.effectiveDirective} ${e.blockedURI || e.sample}`);
    });
  });
}
