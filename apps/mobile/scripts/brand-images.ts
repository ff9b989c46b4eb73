import { readdirSync, readFileSync, statSync, writeFileSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { chromium } from "playwright-core";

/** The brand colour of the shells' icons and splash screens. */
export const BRAND = "#0093dd";

/** The drop of apps/web/public/favicon.svg, in a 64×64 box. */
const DROP =
  '<path d="M32 12c-7 10-14 18-14 26a14 14 0 0 0 28 0c0-8-7-16-14-26z" fill="#fff"/>' +
  `<path d="M26 40a6 6 0 0 0 6 6" stroke="${BRAND}" stroke-width="3" fill="none" stroke-linecap="round"/>`;

/**
 * The SVG drawn into one image of the generated projects, by its file name: launcher icons (square with the brand
 * colour, round, adaptive foreground on transparent within the 66% safe zone), the iOS app icon (opaque, full bleed)
 * and splash screens (the brand colour with the drop at 22% of the shorter side). Sizes in px.
 */
export function brandSvg(file: string, width: number, height: number): string {
  const name = file.split("/").pop() ?? file;
  const svg = (body: string) =>
    `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}" viewBox="0 0 ${width} ${height}">${body}</svg>`;
  const drop = (size: number) =>
    `<g transform="translate(${(width - size) / 2} ${(height - size) / 2}) scale(${size / 64})">${DROP}</g>`;
  if (name.startsWith("ic_launcher_foreground")) return svg(drop(width * 0.66));
  if (name.startsWith("ic_launcher_round"))
    return svg(`<circle cx="${width / 2}" cy="${height / 2}" r="${width / 2}" fill="${BRAND}"/>${drop(width)}`);
  if (name.startsWith("ic_launcher"))
    return svg(`<rect width="${width}" height="${height}" rx="${width * 0.22}" fill="${BRAND}"/>${drop(width)}`);
  if (name.startsWith("AppIcon"))
    return svg(`<rect width="${width}" height="${height}" fill="${BRAND}"/>${drop(width)}`);
  return svg(`<rect width="${width}" height="${height}" fill="${BRAND}"/>${drop(Math.min(width, height) * 0.22)}`);
}

function pngSize(file: string): { width: number; height: number } {
  const head = readFileSync(file);
  return { width: head.readUInt32BE(16), height: head.readUInt32BE(20) };
}

function pngs(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    return statSync(path).isDirectory() ? pngs(path) : name.endsWith(".png") ? [path] : [];
  });
}

/**
 * Redraws every icon and splash PNG of the committed projects (android/app/src/main/res, ios/App/App/Assets.xcassets)
 * at its own size with {@link brandSvg}, in Chromium (`CHROMIUM_PATH`, default /usr/bin/chromium). Run after
 * `cap add`: `node scripts/brand-images.ts`. Returns the files written.
 */
export async function drawBrandImages(): Promise<string[]> {
  const mobile = resolve(dirname(fileURLToPath(import.meta.url)), "..");
  const files = [
    ...pngs(join(mobile, "android/app/src/main/res")),
    ...pngs(join(mobile, "ios/App/App/Assets.xcassets")),
  ];
  const browser = await chromium.launch({
    executablePath: process.env.CHROMIUM_PATH ?? "/usr/bin/chromium",
    args: ["--no-sandbox", "--disable-gpu"],
  });
  try {
    const page = await browser.newPage();
    for (const file of files) {
      const { width, height } = pngSize(file);
      await page.setViewportSize({ width, height });
      await page.setContent(
        `<html><body style="margin:0;background:transparent">${brandSvg(file, width, height)}</body></html>`,
      );
      const opaque = file.includes("AppIcon") || file.includes("splash");
      writeFileSync(file, await page.screenshot({ omitBackground: !opaque, clip: { x: 0, y: 0, width, height } }));
    }
  } finally {
    await browser.close();
  }
  return files;
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const files = await drawBrandImages();
  console.log(`${files.length} images drawn in ${BRAND}`);
}
