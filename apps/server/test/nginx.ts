import { type ChildProcess, execFileSync, spawn } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { freePort, installedBinary, waitForPort } from "./free-port.ts";
import type { Requirement } from "./required-programs.ts";

/** The path of Debian's nginx, or null when it is not installed (see {@link nginxRequirement}). */
export function nginxBinary(): string | null {
  return installedBinary("nginx", ["/usr/sbin/nginx", "/usr/bin/nginx"]);
}

/** nginx as a suite's requirement (test/required-programs.ts `skipUnlessInstalled`): `found` is `binary`. */
export function nginxRequirement(binary = nginxBinary()): Requirement {
  return { program: "nginx", found: binary, debianPackage: "nginx" };
}

/** A throwaway nginx balancing HTTP and WebSocket traffic over server processes (docs/deploy.md). */
export interface ThrowawayNginx {
  port: number;
  /** http://127.0.0.1:port */
  url: string;
  /** Stops nginx (SIGQUIT: graceful) and removes its folder. */
  stop(): Promise<void>;
}

/**
 * The nginx configuration of the scaled shape (docs/deploy.md "Try the scaled shape"): round robin over `upstreams`
 * (host:port), no stickiness, WebSocket upgrades passed through (`Upgrade`/`Connection` headers, HTTP/1.1, hour-long
 * reads for the hubs), the client's address in `X-Forwarded-For`, a dead upstream tried once on the next one for
 * requests that may be repeated. `dir` holds the pid file, temp folders and logs. `workers` (default 1) worker
 * processes of `workerConnections` (default 4096) connections each; a proxied WebSocket holds two.
 */
export function nginxConfig(opts: {
  port: number;
  upstreams: readonly string[];
  dir: string;
  workers?: number;
  workerConnections?: number;
}): string {
  const servers = opts.upstreams.map((u) => `    server ${u} max_fails=0;`).join("\n");
  const d = opts.dir;
  // As root (CI, this machine) the workers would run as nobody, who cannot use the private temp folder.
  const user = typeof process.getuid === "function" && process.getuid() === 0 ? "user root;\n" : "";
  const connections = opts.workerConnections ?? 4096;
  return `${user}worker_processes ${opts.workers ?? 1};
worker_rlimit_nofile ${connections + 64};
daemon off;
master_process on;
pid ${d}/nginx.pid;
error_log ${d}/error.log warn;
events { worker_connections ${connections}; }
http {
  access_log off;
  client_body_temp_path ${d}/body;
  proxy_temp_path ${d}/proxy;
  fastcgi_temp_path ${d}/fastcgi;
  uwsgi_temp_path ${d}/uwsgi;
  scgi_temp_path ${d}/scgi;
  map $http_upgrade $connection_upgrade { default upgrade; '' close; }
  upstream aquapilot {
${servers}
    keepalive 32;
  }
  server {
    listen 127.0.0.1:${opts.port};
    client_max_body_size 12m;
    location / {
      proxy_pass http://aquapilot;
      proxy_http_version 1.1;
      proxy_set_header Host $host;
      proxy_set_header Upgrade $http_upgrade;
      proxy_set_header Connection $connection_upgrade;
      proxy_set_header X-Forwarded-For $proxy_add_x_forwarded_for;
      proxy_set_header X-Forwarded-Proto $scheme;
      proxy_read_timeout 3600s;
      proxy_next_upstream error timeout http_502;
      proxy_next_upstream_tries 2;
    }
  }
}
`;
}

/**
 * Starts `binary` (nginx) in the foreground on a free port of 127.0.0.1 with {@link nginxConfig} over `upstreams`,
 * its files in a temp folder, and waits until it accepts connections. The caller stops it. `size` sets the worker
 * processes and their connections (the fleet benchmark's 10,000 sessions need two workers of 12,000).
 * @throws when the configuration is refused (`nginx -t`, with its message) or nginx does not listen within 5 s.
 */
export async function startThrowawayNginx(
  binary: string,
  upstreams: readonly string[],
  size: { workers?: number; workerConnections?: number } = {},
): Promise<ThrowawayNginx> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "aquapilot-nginx-"));
  const port = await freePort();
  const conf = path.join(dir, "nginx.conf");
  fs.writeFileSync(conf, nginxConfig({ port, upstreams, dir, ...size }));
  try {
    execFileSync(binary, ["-t", "-q", "-p", dir, "-c", conf], { stdio: "pipe" });
  } catch (err) {
    const stderr = (err as { stderr?: Buffer }).stderr?.toString() ?? String(err);
    fs.rmSync(dir, { recursive: true, force: true });
    throw new Error(`nginx refused its configuration: ${stderr}`);
  }
  const child: ChildProcess = spawn(binary, ["-p", dir, "-c", conf], { stdio: "ignore" });
  await waitForPort(port, "nginx");
  return {
    port,
    url: `http://127.0.0.1:${port}`,
    async stop() {
      if (child.exitCode === null && child.signalCode === null) {
        const exited = new Promise((resolve) => child.once("exit", resolve));
        child.kill("SIGQUIT");
        await Promise.race([exited, new Promise((resolve) => setTimeout(resolve, 5_000))]);
        if (child.exitCode === null) child.kill("SIGKILL");
      }
      fs.rmSync(dir, { recursive: true, force: true });
    },
  };
}
