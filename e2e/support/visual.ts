import fs from "node:fs";
import path from "node:path";
import { isCi } from "@aquapilot/server/test/required-programs.ts";
import pixelmatch from "pixelmatch";
import type { Locator, Page } from "playwright-core";
import { PNG } from "pngjs";

/** The committed reference images, one `<name>.png` per compared screen. */
export const REFERENCE_DIR = path.join(import.meta.dirname, "..", "visual-references");

/** Where a mismatch leaves its actual image and its diff image (git-ignored, like every e2e screenshot). */
export const MISMATCH_DIR = path.join(import.meta.dirname, "..", "screenshots", "visual");

/** The command that (re)writes the references from the running app. */
export const UPDATE_COMMAND = "npm run test:visual:update -w e2e";

/**
 * How far two screenshots may differ and still count as the same screen.
 * `threshold`: pixelmatch's per-pixel colour distance (0–1, OKLab HyAB; 1 is black against white) below which a pixel
 * counts as equal; anti-aliased edges are not counted. `maxDiffShare`: the largest share (0–1) of the image's pixels
 * that may differ.
 */
export interface VisualTolerance {
  threshold: number;
  maxDiffShare: number;
}

/**
 * The tolerance of the screen comparisons. On the 2-core machine with Debian's Chromium (software rendering), repeated
 * runs gave screenshots with no pixel above the threshold (one pixel of 30 screens differed at all), so the allowance
 * only leaves room for rasterising noise: 0.1 is pixelmatch's default per-pixel distance (anti-aliased edges are not
 * counted), and 0.05 % of a 375×812 screen is 152 pixels, a few glyphs. Measured against it: the page title of the
 * Device screen in the brand colour differs in 278 pixels (0.09 %), 4 px more padding in Home's
 * device cards in 31,077 (10 %).
 */
export const VISUAL_TOLERANCE: VisualTolerance = { threshold: 0.1, maxDiffShare: 0.0005 };

/** Whether this run writes the references instead of comparing against them: `UPDATE_VISUAL_REFERENCES=1`. */
export function updatingReferences(env: NodeJS.ProcessEnv = process.env): boolean {
  const value = env.UPDATE_VISUAL_REFERENCES?.trim().toLowerCase();
  return value !== undefined && value !== "" && value !== "0" && value !== "false";
}

/** The outcome of {@link compareImages}: differing pixels, their share of the image, and the diff image. */
export interface ImageComparison {
  /** Pixels whose distance is above the threshold (the whole image when the sizes differ). */
  differing: number;
  /** `differing` over width × height of the larger image, 0–1. */
  share: number;
  /** The diff drawn by pixelmatch (differing pixels red over a faded copy); null when the sizes differ. */
  diff: PNG | null;
  /** Why the images cannot be compared pixel by pixel (their sizes), or null. */
  sizeMismatch: string | null;
}

/**
 * Compares two PNG images pixel by pixel with pixelmatch.
 * @param actual PNG bytes of the new screenshot.
 * @param expected PNG bytes of the reference.
 * @param threshold pixelmatch's per-pixel threshold (see {@link VisualTolerance}).
 * @returns the differing pixels, their share and the diff image; images of different sizes differ entirely.
 * @throws Error when either buffer is not a PNG image.
 */
export function compareImages(actual: Buffer, expected: Buffer, threshold: number): ImageComparison {
  const a = PNG.sync.read(actual);
  const e = PNG.sync.read(expected);
  if (a.width !== e.width || a.height !== e.height) {
    const pixels = Math.max(a.width * a.height, e.width * e.height);
    return {
      differing: pixels,
      share: 1,
      diff: null,
      sizeMismatch: `size ${a.width}×${a.height}, reference ${e.width}×${e.height}`,
    };
  }
  const diff = new PNG({ width: a.width, height: a.height });
  const differing = pixelmatch(a.data, e.data, diff.data, a.width, a.height, { threshold });
  return { differing, share: differing / (a.width * a.height), diff, sizeMismatch: null };
}

/**
 * Checks a screenshot against its committed reference `visual-references/<name>.png`.
 * When {@link updatingReferences}, writes the screenshot as the reference and returns (refused under CI). Otherwise a missing reference
 * fails (under CI as a missing committed file, elsewhere telling to run {@link UPDATE_COMMAND}), and a screenshot whose
 * share of differing pixels is above `tolerance.maxDiffShare` fails after writing `<name>.actual.png` and
 * `<name>.diff.png` under {@link MISMATCH_DIR}.
 * @param name file name of the reference without `.png`, e.g. "home-en".
 * @param actual PNG bytes of the screenshot.
 * @throws Error naming the reference, the differing share against the allowed one and the written files.
 */
export function checkAgainstReference(
  name: string,
  actual: Buffer,
  opts: { tolerance?: VisualTolerance; env?: NodeJS.ProcessEnv } = {},
): void {
  const env = opts.env ?? process.env;
  const tolerance = opts.tolerance ?? VISUAL_TOLERANCE;
  const reference = path.join(REFERENCE_DIR, `${name}.png`);
  if (updatingReferences(env)) {
    if (isCi(env))
      throw new Error("UPDATE_VISUAL_REFERENCES is refused under CI: references are written and looked at locally");
    fs.mkdirSync(REFERENCE_DIR, { recursive: true });
    fs.writeFileSync(reference, actual);
    return;
  }
  const relative = path.relative(process.cwd(), reference);
  if (!fs.existsSync(reference)) {
    if (isCi(env))
      throw new Error(`visual reference ${relative} is missing: it must be committed (CI never writes it)`);
    throw new Error(`visual reference ${relative} is missing: run \`${UPDATE_COMMAND}\`, look at it and commit it`);
  }
  const result = compareImages(actual, fs.readFileSync(reference), tolerance.threshold);
  if (result.share <= tolerance.maxDiffShare) return;
  fs.mkdirSync(MISMATCH_DIR, { recursive: true });
  const actualFile = path.join(MISMATCH_DIR, `${name}.actual.png`);
  fs.writeFileSync(actualFile, actual);
  const written = [path.relative(process.cwd(), actualFile)];
  if (result.diff) {
    const diffFile = path.join(MISMATCH_DIR, `${name}.diff.png`);
    fs.writeFileSync(diffFile, PNG.sync.write(result.diff));
    written.push(path.relative(process.cwd(), diffFile));
  }
  const percent = (share: number) => `${(share * 100).toFixed(3)} %`;
  const what = result.sizeMismatch ?? `${result.differing} pixels differ (${percent(result.share)})`;
  throw new Error(
    `${name} differs from ${relative}: ${what}, allowed ${percent(tolerance.maxDiffShare)} ` +
      `(per-pixel threshold ${tolerance.threshold}); actual and diff: ${written.join(", ")}; ` +
      `if the change is intended, run \`${UPDATE_COMMAND}\``,
  );
}

/** A part of the screen painted over before the shot, with why its content cannot be compared. */
export interface Mask {
  locator: Locator;
  reason: string;
}

/**
 * Takes a viewport screenshot of `page` in CSS pixels (375×812 on the phone of support/browser.ts), after the fonts
 * have loaded, with animations finished, the caret hidden and each mask painted over, then checks it against the
 * reference `name` ({@link checkAgainstReference}).
 * @throws Error as {@link checkAgainstReference} does.
 */
export async function expectScreen(page: Page, name: string, masks: readonly Mask[] = []): Promise<void> {
  await page.evaluate(() => document.fonts.ready.then(() => undefined));
  const shot = await page.screenshot({
    scale: "css",
    animations: "disabled",
    caret: "hide",
    mask: masks.map((m) => m.locator),
  });
  checkAgainstReference(name, shot);
}
