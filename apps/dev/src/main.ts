/**
 * Development entry (`npm start` at the root, after the web app is built when its sources changed): reads the
 * configuration, starts the server with the demo owner, the simulated softeners and the development routes
 * (`startDevSystem`), prints where to find them, and shuts down gracefully on SIGINT/SIGTERM (fleet, HTTP and hubs,
 * device link, database — nothing acknowledged is lost). Exit code 2 on a configuration error or a refused production
 * start (the message, no stack), 1 on any other failure. The production entry is apps/server/src/server.ts.
 */
import { coreBanner, runAsProcess } from "@aquapilot/server/process-entry.ts";
import { DEMO_ACCOUNT } from "./demo.ts";
import { startDevSystem } from "./system.ts";

runAsProcess(startDevSystem, (system, config) =>
  [
    ...coreBanner(system, config),
    `  simulated softeners: ${system.fleet.devices.length}`,
    system.demoAvailable
      ? `  demo sign-in: ${DEMO_ACCOUNT.email} / ${DEMO_ACCOUNT.password}${system.demo ? " (created now)" : ""}`
      : "",
    config.APP_ENV !== "production" && !config.SMTP_URL ? `  e-mail outbox: ${system.url}/dev/outbox` : "",
  ].filter((line) => line !== ""),
);
