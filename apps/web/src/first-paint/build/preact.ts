import { createRequire } from "node:module";
import { fileURLToPath, pathToFileURL } from "node:url";

/**
 * The production build runs the app's React code on Preact: React's API through
 * `preact/compat` (by way of preact-react.js, which declares the React 19 hook Preact lacks), 11 KB of gzip instead of
 * react-dom's 64 KB on every first screen. The development server and the
 * unit tests keep React 19 (Fast Refresh, Testing Library); the browser tests run the built app, on Preact. The
 * build-time Login copy (prerender-plugin.ts) is rendered with React's `renderToString`: these aliases are left out
 * there.
 */
export const PREACT_ALIASES = [
  { find: /^react$/, replacement: fileURLToPath(new URL("./preact-react.js", import.meta.url)) },
  { find: /^react-dom$/, replacement: "preact/compat" },
  { find: /^react-dom\/client$/, replacement: "preact/compat/client" },
  { find: /^react\/jsx-runtime$/, replacement: "preact/jsx-runtime" },
  { find: /^react\/jsx-dev-runtime$/, replacement: "preact/jsx-runtime" },
];

/**
 * React Router's production build for the production bundle: the package's exports name only its development build,
 * which differs in one constant (`ENABLE_DEV_WARNINGS = true`), so its warnings' checks ran on every phone's
 * navigation. The same module otherwise; the development server and the unit tests keep the package's own.
 */
export const REACT_ROUTER_PRODUCTION = {
  find: /^react-router$/,
  replacement: fileURLToPath(
    new URL(
      "dist/production/index.mjs",
      pathToFileURL(createRequire(import.meta.url).resolve("react-router/package.json")),
    ),
  ),
};
