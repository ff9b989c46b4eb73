/**
 * Development entry (`npm start` at the root, after the web app is built when its sources changed): reads the
 * configuration, starts the server with the demo owner, the simulated softeners and the development routes
 * (`startDevSystem`), prints where to find them, and shuts down gracefully on SIGINT/SIGTERM (fleet, HTTP and hubs,
 * device link, database — nothing acknowledged is lost). Exit code 2 on a configuration error or a refused production
 * start (the message, no stack), 1 on any other failure. The production entry is apps/server/src/server.ts.
 */
import { ConfigError, loadConfig } from "@aquapilot/server/config.ts";
import { DEMO_ACCOUNT } from "./demo.ts";
import { type DevSystem, startDevSystem } from "./system.ts";

async function main(): Promise<void> {
  let config: ReturnType<typeof loadConfig>;
  try {
    config = loadConfig();
  } catch (err) {
    if (err instanceof ConfigError) {
      process.stderr.write(`${err.message}\n`);
      process.exit(2);
    }
    throw err;
  }
  let system: DevSystem;
  try {
    system = await startDevSystem(config);
  } catch (err) {
    // Refusals of production (the demo credentials) read like configuration errors: the message, no stack.
    if (err instanceof ConfigError) {
      process.stderr.write(`${err.message}\n`);
      process.exit(2);
    }
    throw err;
  }
  const lines = [
    "",
    `AquaPilot is running at ${system.url}`,
    `  database: ${system.engine === "sqlite" ? `SQLite in ${config.DATA_DIR}` : "PostgreSQL"}`,
    `  MQTT broker: ${system.deviceLink.brokerUrl}${config.MQTT_URL ? "" : " (embedded)"}`,
    `  simulated softeners: ${system.fleet.devices.length}`,
    system.demoAvailable
      ? `  demo sign-in: ${DEMO_ACCOUNT.email} / ${DEMO_ACCOUNT.password}${system.demo ? " (created now)" : ""}`
      : "",
    config.APP_ENV !== "production" && !config.SMTP_URL ? `  e-mail outbox: ${system.url}/dev/outbox` : "",
    "",
  ].filter((l, i, all) => l !== "" || i === 0 || i === all.length - 1);
  process.stdout.write(`${lines.join("\n")}\n`);

  let stopping = false;
  const stop = async (signal: string) => {
    if (stopping) return;
    stopping = true;
    system.app.log.info({ signal }, "shutting down");
    const timer = setTimeout(() => process.exit(1), 10_000);
    timer.unref();
    await system.close();
    process.exit(0);
  };
  process.on("SIGINT", () => void stop("SIGINT"));
  process.on("SIGTERM", () => void stop("SIGTERM"));
}

main().catch((err) => {
  process.stderr.write(`AquaPilot failed to start: ${err instanceof Error ? (err.stack ?? err.message) : err}\n`);
  process.exit(1);
});
