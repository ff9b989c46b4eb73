import type { Language } from "@aquapilot/contract/wire";
import { removeItem, type SnapshotNode, type StoredSnapshot, setItem } from "../shared/storage/index.ts";

export type { SnapshotNode };

/**
 * The last Home an owner saw, kept so the next start paints it before the app's code has loaded (Home's
 * largest paint within 1.3× of a static page). The app writes it here while Home shows its devices;
 * apps/web/src/first-paint/boot.js rebuilds it into `#root` on a signed-in start on Home, in the same language and on
 * the same day, and the app's first render replaces it. It is a tree of plain data, never HTML: boot.js builds it with
 * `createElement`, `setAttribute` and the CSSOM, so the page's Content-Security-Policy (no inline styles, no inline
 * script) holds and nothing in it can run. Sign-in and sign-out remove it (storage `clearSession`, `clearLoginInfo`).
 * The first screen drawn out of sight and shown in one step (below) serves beneath Home's snapshot, the Login screen's
 * prerendered copy and the Device screen's prerendered frame alike.
 */

/** The snapshot format boot.js reads. */
export const SNAPSHOT_VERSION = 1;

/** The largest snapshot kept, in characters of JSON (about 40 KB for Home with five devices). */
export const SNAPSHOT_MAX_CHARS = 200_000;

/** Elements a snapshot never holds (nothing in it may run or load). */
const SKIPPED = new Set(["script", "style", "link", "iframe", "object", "embed", "template", "noscript"]);

/**
 * The local calendar day of `at` as `YYYY-MM-DD` (the phone's time zone), the same text
 * apps/web/src/first-paint/boot.js computes.
 * @param at a time, default now
 */
export function localDay(at: Date = new Date()): string {
  const pad = (n: number) => String(n).padStart(2, "0");
  return `${at.getFullYear()}-${pad(at.getMonth() + 1)}-${pad(at.getDate())}`;
}

/**
 * The snapshot tree of `node`'s children (see {@link SnapshotNode}): elements and text, comments dropped, script-like
 * elements ({@link SKIPPED}) and event-handler attributes (`on…`) left out, whitespace-only text kept (it lays out).
 * `data-testid` is left out too: as with Login's prerendered copy, only the live screen has the ids tests look for.
 * @param node the element whose children are taken (`#root`)
 */
export function snapshotChildren(node: Node): SnapshotNode[] {
  const out: SnapshotNode[] = [];
  for (const child of Array.from(node.childNodes)) {
    if (child.nodeType === 3) {
      out.push(child.nodeValue ?? "");
      continue;
    }
    if (child.nodeType !== 1) continue;
    const element = child as Element;
    const name = element.localName;
    if (SKIPPED.has(name)) continue;
    const attributes: string[] = [];
    for (const a of Array.from(element.attributes)) {
      if (a.name === "style" || a.name === "data-testid" || a.name.toLowerCase().startsWith("on")) continue;
      attributes.push(a.name, a.value);
    }
    const style: string[] = [];
    const declared = (element as HTMLElement).style;
    if (declared) {
      for (let i = 0; i < declared.length; i++) {
        const property = declared.item(i);
        style.push(property, declared.getPropertyValue(property), declared.getPropertyPriority(property));
      }
    }
    out.push([name, attributes, style, snapshotChildren(element)]);
  }
  return out;
}

/** `root`'s content as a snapshot in `lang` for the day of `now`, or null when larger than {@link SNAPSHOT_MAX_CHARS}. */
function snapshotOf(root: Element, lang: Language, now: Date): StoredSnapshot | null {
  const nodes = snapshotChildren(root);
  if (JSON.stringify(nodes).length > SNAPSHOT_MAX_CHARS) return null;
  return { v: SNAPSHOT_VERSION, lang, day: localDay(now), nodes };
}

/**
 * Keeps `root`'s content as the Home snapshot in `lang` for today (localStorage `homeSnapshot`); one larger than
 * {@link SNAPSHOT_MAX_CHARS} removes the stored one instead. Storage failures are logged and ignored (storage module).
 * @param root the app's container (`#root`)
 * @param lang the language the screen is shown in
 * @param now the time it is taken, default now
 */
export function saveSnapshot(root: Element, lang: Language, now: Date = new Date()): void {
  const snapshot = snapshotOf(root, lang, now);
  if (snapshot) setItem("homeSnapshot", snapshot);
  else removeItem("homeSnapshot");
}

/**
 * Whether the page shows Home's snapshot that the app's first render is about to replace
 * (apps/web/src/first-paint/boot.js marks the page with `data-snapshot`; main.tsx removes the mark after that render).
 * A screen may then render what the snapshot shows at once instead of step by step.
 */
export function showingSnapshot(): boolean {
  return typeof document !== "undefined" && document.documentElement.hasAttribute("data-snapshot");
}

/** The class of the app's container while it is drawn beneath the snapshot (styles.css: laid out, not shown). */
export const STAGING_CLASS = "root-staging";

/** The class of the element laid over the staging one until the swap (styles.css: out of the page's flow, on top). */
export const COVERING_CLASS = "root-covering";

let drawn: () => void = () => {};
/** The element made by {@link stageBeneathSnapshot} while the app is drawn in it, else null (not staging). */
let stagingElement: HTMLElement | null = null;
let whenDrawn: Promise<void> = new Promise((resolve) => {
  drawn = resolve;
});

/**
 * Makes the container the app renders into while what `snapshotRoot` (#root) shows stays on screen — Home's snapshot,
 * or the prerendered Login copy or Device frame, as apps/web/src/first-paint/boot.js painted it: an empty element
 * after it, laid out as the shown #root will be but invisible and inert (`STAGING_CLASS`) while `snapshotRoot` is laid
 * over it (`COVERING_CLASS`), so the live screen can be drawn in several short tasks (Home's cards one per task,
 * first-paint/reveal.ts; a screen's `Staged` parts, first-paint/staged.tsx) instead of one long one (Lighthouse's
 * total blocking time), and shown at once by {@link showStaged}.
 * @param snapshotRoot the page's #root (Home's snapshot, the prerendered copies, or nothing)
 * @returns the staging element (not yet the page's #root)
 */
export function stageBeneathSnapshot(snapshotRoot: HTMLElement): HTMLElement {
  const staging = document.createElement("div");
  staging.className = STAGING_CLASS;
  staging.inert = true;
  staging.setAttribute("aria-hidden", "true");
  // What covers the staging element leaves the flow (styles.css): Home's snapshot already has (boot.js marked the
  // page); a #root with the prerendered copies, or an empty one, does now.
  snapshotRoot.classList.add(COVERING_CLASS);
  snapshotRoot.after(staging);
  stagingElement = staging;
  return staging;
}

/**
 * Lays out what has been drawn beneath the snapshot so far, now, in the current task (a layout read of the staging
 * element): called as each part of the screen is drawn (`Staged`), each part's layout falls in that part's short task
 * instead of all of them together in the browser's next frame (one layout of 19-31 ms on this machine, a
 * long task on Lighthouse's slow phone, right after the app's code). Does nothing when not staging.
 */
export function layOutStaging(): void {
  if (stagingElement) void stagingElement.offsetHeight;
}

/**
 * Whether the app is being drawn beneath the snapshot now (between {@link stageBeneathSnapshot} and
 * {@link showStaged}): nothing of it is seen yet, so a screen may draw its parts in separate tasks (`Staged`).
 */
export function drawingBeneathSnapshot(): boolean {
  return stagingElement !== null;
}

/**
 * Tells start-up that the first screen drawn beneath the snapshot is complete (Home: every device card is in, or its
 * device section shows what is not a list), so it may replace the snapshot now. Calling it again does nothing.
 */
export function firstScreenDrawn(): void {
  drawn();
}

/**
 * Resolves when the screen drawn beneath the snapshot says it is complete ({@link firstScreenDrawn}) or after `maxMs`,
 * whichever is first. Never rejects.
 * @param maxMs the longest wait, ms
 */
export function firstScreenComplete(maxMs: number): Promise<void> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const limit = new Promise<void>((resolve) => {
    timer = setTimeout(resolve, maxMs);
  });
  return Promise.race([whenDrawn, limit]).then(() => clearTimeout(timer));
}

/**
 * Replaces the snapshot with the live screen in one step (one frame: no moment without either): removes
 * `snapshotRoot`, gives `staging` the id `root` and shows it, and removes the page's snapshot mark (`data-snapshot`).
 * @param snapshotRoot the element holding the snapshot (#root)
 * @param staging the element made by {@link stageBeneathSnapshot}
 */
export function showStaged(snapshotRoot: HTMLElement, staging: HTMLElement): void {
  snapshotRoot.remove();
  staging.id = "root";
  staging.classList.remove(STAGING_CLASS);
  if (staging.className === "") staging.removeAttribute("class");
  staging.inert = false;
  staging.removeAttribute("aria-hidden");
  document.documentElement.removeAttribute("data-snapshot");
  stagingElement = null;
}

/** Test hook: a new start-up's promise for {@link firstScreenDrawn}. */
export function resetFirstScreenDrawn(): void {
  stagingElement = null;
  whenDrawn = new Promise((resolve) => {
    drawn = resolve;
  });
}
