import { type ChildProcess, spawn } from "node:child_process";
import { freePort, installedBinary, waitForPort } from "./free-port.ts";
import type { Requirement } from "./required-programs.ts";

/** The path of Debian's redis-server, or null when it is not installed (see {@link redisServerRequirement}). */
export function redisServerBinary(): string | null {
  return installedBinary("redis-server");
}

/**
 * redis-server as a suite's requirement (test/required-programs.ts `skipUnlessInstalled`): `found` is `binary`, by
 * default {@link redisServerBinary}; `alternative` says another way to provide a Redis, when the suite has one.
 */
export function redisServerRequirement(binary = redisServerBinary(), alternative?: string): Requirement {
  return { program: "redis-server", found: binary, debianPackage: "redis-server", alternative };
}

/** A throwaway redis-server on 127.0.0.1 and a free port, no persistence; restartable on the same port. */
export interface ThrowawayRedis {
  port: number;
  /** redis://[:password@]127.0.0.1:port/0 */
  url: string;
  /** Stops the server (SIGTERM) and waits for it to exit. */
  stop(): Promise<void>;
  /** Starts it again on the same port (empty: no persistence) and waits until it accepts connections. */
  start(): Promise<void>;
}

/**
 * Starts `binary` (redis-server) on a free port of 127.0.0.1 with no persistence, optionally with `requirepass`, and
 * waits until it accepts connections. The caller stops it.
 * @throws when it does not listen within 5 s.
 */
export async function startThrowawayRedis(binary: string, opts: { password?: string } = {}): Promise<ThrowawayRedis> {
  const port = await freePort();
  let child: ChildProcess | null = null;
  const args = ["--port", String(port), "--bind", "127.0.0.1", "--save", "", "--appendonly", "no"];
  if (opts.password) args.push("--requirepass", opts.password);
  const server: ThrowawayRedis = {
    port,
    url: `redis://${opts.password ? `:${encodeURIComponent(opts.password)}@` : ""}127.0.0.1:${port}/0`,
    async start() {
      child = spawn(binary, args, { stdio: "ignore" });
      await waitForPort(port, "redis-server");
    },
    async stop() {
      const running = child;
      child = null;
      if (!running || running.exitCode !== null) return;
      const exited = new Promise((resolve) => running.once("exit", resolve));
      running.kill("SIGTERM");
      await exited;
    },
  };
  await server.start();
  return server;
}
