import { execFileSync } from "node:child_process";
import fs from "node:fs";
import net from "node:net";

/** A TCP port free on 127.0.0.1 right now (the OS picks it; a throwaway server binds it next). */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const srv = net.createServer();
    srv.once("error", reject);
    srv.listen(0, "127.0.0.1", () => {
      const { port } = srv.address() as net.AddressInfo;
      srv.close(() => resolve(port));
    });
  });
}

/**
 * Resolves once something accepts TCP connections on 127.0.0.1:`port` (a throwaway server the test started), trying
 * every `stepMs`. @throws Error "`what` did not listen on `port`" after `timeoutMs`.
 */
export function waitForPort(port: number, what: string, timeoutMs = 5_000, stepMs = 25): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  return new Promise((resolve, reject) => {
    const attempt = () => {
      const socket = net.connect(port, "127.0.0.1");
      socket.once("connect", () => {
        socket.destroy();
        resolve();
      });
      socket.once("error", () => {
        socket.destroy();
        if (Date.now() > deadline) reject(new Error(`${what} did not listen on ${port}`));
        else setTimeout(attempt, stepMs);
      });
    };
    attempt();
  });
}

/**
 * The path of an installed program (Debian's package of that name): the first of `paths` that exists, else what
 * `which name` finds, else null (test/required-programs.ts `skipUnlessInstalled` says what that means for a suite).
 */
export function installedBinary(name: string, paths: readonly string[] = []): string | null {
  for (const candidate of paths) if (fs.existsSync(candidate)) return candidate;
  try {
    return execFileSync("which", [name], { encoding: "utf8" }).trim() || null;
  } catch {
    return null;
  }
}
