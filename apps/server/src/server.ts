/**
 * Production entry (`npm start -w apps/server`, docs/deploy.md): reads the configuration, starts the production core
 * (`startSystem`: no demo owner, no simulated softeners, no development routes), prints where to find it, and shuts
 * down gracefully on SIGINT/SIGTERM (HTTP and hubs, device link, database — nothing acknowledged is lost). Exit code 2
 * on a configuration error or a refused production start (the message, no stack), 1 on any other failure. The
 * development launcher that `npm start` runs at the root is apps/dev/src/main.ts.
 */
import { coreBanner, runAsProcess } from "./process-entry.ts";
import { startSystem } from "./system.ts";

runAsProcess(startSystem, coreBanner);
