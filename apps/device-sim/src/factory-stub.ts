import http from "node:http";
import type { AddressInfo } from "node:net";

/** A stand-in for the cloud's development factory route, for the simulator's CLI tests. */
export interface FactoryStub {
  /** Base URL, e.g. http://127.0.0.1:40123. */
  url: string;
  /** The bodies of every `POST /dev/factory/devices`, in order. */
  registered: Array<Record<string, string>>;
  close(): Promise<void>;
}

/**
 * Starts an HTTP server on 127.0.0.1 and a free port that records `POST /dev/factory/devices` bodies and answers
 * 201 `{}` (docs/device-protocol.md §2: the factory registers devices); anything else is 404.
 */
export async function startFactoryStub(): Promise<FactoryStub> {
  const registered: Array<Record<string, string>> = [];
  const server = http.createServer((req, res) => {
    let body = "";
    req.on("data", (c) => {
      body += c;
    });
    req.on("end", () => {
      if (req.method === "POST" && req.url === "/dev/factory/devices") {
        registered.push(JSON.parse(body));
        res.writeHead(201, { "content-type": "application/json" }).end("{}");
      } else res.writeHead(404).end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    registered,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
