/**
 * Production entry (`npm start -w apps/server`, docs/deploy.md): reads the configuration, starts the production core
 * (`startSystem`: no demo owner, no simulated softeners, no development routes), prints where to find it, and shuts
 * down gracefully on SIGINT/SIGTERM (HTTP and hubs, device link, database — nothing acknowledged is lost). Exit code 2
 * on a configuration error or a refused production start (the message, no stack), 1 on any other failure. The
 * development launcher that `npm start` runs at the root is apps/dev/src/main.ts.
 */
import { ConfigError, loadConfig } from "./config.ts";
import { startSystem } from "./system.ts";

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
    "",
  ];
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
