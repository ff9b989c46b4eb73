/**
 * What the production build gives code that imports "react" (preact.ts `PREACT_ALIASES`): Preact's React API
 * (`preact/compat`), plus the one React 19 hook Preact lacks, declared absent. React Router probes
 * `React.useOptimistic` and, when it is undefined, keeps the navigation state without optimistic updates (its React 18
 * path, the behaviour the app has always had on Preact). Declaring it here makes that absence explicit, so no import
 * in the bundle is silently undefined and the bundler has nothing to warn about. Plain JavaScript: preact/compat's
 * types are an `export =`, which TypeScript does not let a module re-export with `export *`.
 */
export * from "preact/compat";
export { default } from "preact/compat";

/** React 19's `useOptimistic`, which Preact does not implement: undefined, so callers take their fallback. */
export const useOptimistic = undefined;
