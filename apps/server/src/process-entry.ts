import path from "node:path";
import { type AppConfig, ConfigError, loadConfig } from "./config.ts";
import { DEV_CA_CERT_FILE, DEV_TLS_DIR } from "./iot/tls.ts";
import type { System } from "./system.ts";

/** How long a graceful shutdown may take before the process exits anyway (ms). */
export const SHUTDOWN_LIMIT_MS = 10_000;

/**
 * The lines every entry prints once the system listens: its URL, database and MQTT broker, and where devices connect
 * with the CA they pin when that is the development CA.
 * @returns lines without line breaks; the caller adds its own.
 */
export function coreBanner(system: System, config: AppConfig): string[] {
  return [
    `AquaPilot is running at ${system.url}`,
    `  database: ${system.engine === "sqlite" ? `SQLite in ${config.DATA_DIR}` : "PostgreSQL"}`,
    `  MQTT broker: ${system.deviceLink.brokerUrl}${config.MQTT_URL ? "" : " (embedded)"}`,
    ...(system.deviceLink.deviceUrl !== system.deviceLink.brokerUrl
      ? [`  devices connect to: ${system.deviceLink.deviceUrl}`]
      : []),
    ...(system.deviceLink.deviceCa && !config.MQTT_URL && !config.MQTT_TLS_CA
      ? [`  device CA (pin in firmware, SIM_MQTT_CA): ${path.join(config.DATA_DIR, DEV_TLS_DIR, DEV_CA_CERT_FILE)}`]
      : []),
  ];
}

/**
 * Resolves once `log` has written what it holds (pino's `flush(callback)`); at once for a logger without one. Never
 * rejects: a failed flush leaves the order of the lines to chance, nothing else.
 */
function flushLog(log: object): Promise<void> {
  const flush = (log as { flush?: (done: (err?: Error) => void) => void }).flush;
  if (typeof flush !== "function") return Promise.resolve();
  return new Promise((resolve) => flush.call(log, () => resolve()));
}

/** Writes a configuration error or a refused start as its message alone (it reads like one), then exits 2. */
function exitOnConfigError(err: unknown): void {
  if (err instanceof ConfigError) {
    process.stderr.write(`${err.message}\n`);
    process.exit(2);
  }
}

/**
 * Runs a system as this process, for the production entry (server.ts) and the development launcher (apps/dev): reads
 * the configuration from the environment, starts the system with `start`, prints `banner`'s lines between blank lines,
 * and on SIGINT or SIGTERM closes it (HTTP and hubs, device link, database — nothing acknowledged is lost), exiting 0,
 * or 1 when closing takes over {@link SHUTDOWN_LIMIT_MS}. Exit code 2 on a configuration error or a refused start
 * (`ConfigError`: the message, no stack), 1 on any other failure (with its stack).
 */
export function runAsProcess<S extends System>(
  start: (config: AppConfig) => Promise<S>,
  banner: (system: S, config: AppConfig) => string[],
): void {
  const main = async () => {
    let config: AppConfig;
    try {
      config = loadConfig();
    } catch (err) {
      exitOnConfigError(err);
      throw err;
    }
    let system: S;
    try {
      system = await start(config);
    } catch (err) {
      exitOnConfigError(err);
      throw err;
    }
    // The logger writes asynchronously: its lines of the start (Fastify's "Server listening at …") go out first, so
    // the banner is the log's last lines.
    await flushLog(system.app.log);
    process.stdout.write(`\n${banner(system, config).join("\n")}\n\n`);
    let stopping = false;
    const stop = async (signal: string) => {
      if (stopping) return;
      stopping = true;
      system.app.log.info({ signal }, "shutting down");
      setTimeout(() => process.exit(1), SHUTDOWN_LIMIT_MS).unref();
      await system.close();
      process.exit(0);
    };
    process.on("SIGINT", () => void stop("SIGINT"));
    process.on("SIGTERM", () => void stop("SIGTERM"));
  };
  main().catch((err) => {
    process.stderr.write(`AquaPilot failed to start: ${err instanceof Error ? (err.stack ?? err.message) : err}\n`);
    process.exit(1);
  });
}
