/**
 * Process entry (`npm start`): reads the configuration, starts the whole system, prints where to find it, and shuts
 * down gracefully on SIGINT/SIGTERM (fleet, HTTP and hubs, device link, database — nothing acknowledged is lost).
 */
import { ConfigError, loadConfig } from "./config.ts";
import { DEMO_ACCOUNT, startSystem } from "./system.ts";

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
  let system: Awaited<ReturnType<typeof startSystem>>;
  try {
    system = await startSystem(config);
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
