import { optimize } from "svgo";
import type { Plugin } from "vite";

/**
 * Lighter antd-mobile icons (the first screens carry 5–10 of them, ~8–12 KB gzip). Each icon module of
 * `antd-mobile-icons/es` is a React component whose SVG path data has eight decimals in a 48-unit view box and whose
 * elements carry `id`s nothing refers to. This transform rewrites each `d: "…"` through svgo's `convertPathData` with
 * two decimals (0.01 unit ≈ 0.005 px at the icons' 24 px: no visible change) and drops the `id`s and the
 * `xmlnsXlink` declaration (no icon uses `xlink:`, and Preact, which the build runs on, would write it as an invalid
 * `xmlnsxlink` attribute); the drawing, props, class names and exports stay as they are.
 */
export function iconPlugin(): Plugin {
  return {
    name: "aquapilot-icons",
    enforce: "pre",
    transform: {
      filter: { id: /[\\/]antd-mobile-icons[\\/]es[\\/][A-Z]\w*\.js$/ },
      handler(code) {
        return { code: lightenIcon(code), map: null };
      },
    },
  };
}

/**
 * Returns the icon module `code` with every path's `d` string rewritten by svgo's `convertPathData` at two decimals,
 * and every `id: "…",` property and `xmlnsXlink: "…"` declaration removed. Code without them comes back unchanged.
 * @throws Error when svgo cannot read a path (the build stops rather than ship a broken icon).
 */
export function lightenIcon(code: string): string {
  return code
    .replace(/\bd: "([^"]+)"/g, (_m, d: string) => `d: "${shortenPath(d)}"`)
    .replace(/\s*\bid: "[^"]*",/g, "")
    .replace(/,\s*xmlnsXlink: "[^"]*"/g, "");
}

/** Path data `d` at two decimals, through svgo (its path grammar, not ours). */
export function shortenPath(d: string): string {
  const svg = `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 48 48"><path d="${d}"/></svg>`;
  const out = optimize(svg, {
    multipass: false,
    plugins: [
      {
        name: "convertPathData",
        params: {
          floatPrecision: 2,
          // Shorter numbers, same segments: no lines for flat curves, no shorthands, nothing removed or merged. svgo
          // still writes a curve that is a circular arc (within 0.5 % of its radius) as an arc.
          applyTransforms: false,
          straightCurves: false,
          convertToQ: false,
          lineShorthands: false,
          convertToZ: false,
          curveSmoothShorthands: false,
          removeUseless: false,
          collapseRepeated: false,
          forceAbsolutePath: false,
        },
      },
    ],
  }).data;
  const path = /<path d="([^"]*)"/.exec(out);
  if (!path?.[1]) throw new Error(`antd-mobile-icons: svgo could not shorten the path "${d.slice(0, 40)}…"`);
  return path[1];
}
