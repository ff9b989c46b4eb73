import { config } from "zod/v4/core";

// Runs before zod's schema module is evaluated (see zod-jitless.ts): zod builds schemas while it loads, and the first
// object schema probes `new Function` unless the JIT is off (the strict CSP refuses it).
config({ jitless: true });
