import { z } from "zod";

/**
 * Turns off zod's just-in-time compiled parsers (issue 11, strict CSP). Zod 4 probes `new Function("")` when it first
 * builds an object schema; under the server's Content-Security-Policy (no 'unsafe-eval') that probe is refused and
 * reported as a CSP violation, and parsing falls back to the interpreter anyway. Imported first by main.tsx, before
 * any schema of the contract is built.
 */
z.config({ jitless: true });
