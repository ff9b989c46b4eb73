// First: the switch, set before zod's schema module below is evaluated (it builds schemas as it loads).
import "./zod-config.ts";

/**
 * zod for the web build, with its just-in-time compiled parsers off (strict CSP). Zod 4 probes
 * `new Function("")` when it builds an object schema; under the server's Content-Security-Policy (no 'unsafe-eval')
 * that probe is refused and reported as a CSP violation, and parsing falls back to the interpreter anyway.
 * vite.config.ts aliases the bare specifier "zod" to this module for every importer (the contract included), so the
 * switch is set before the first schema of whichever lazily loaded chunk brings zod in; the first screen loads none.
 */
export * from "zod/v4";
export { default } from "zod/v4";
