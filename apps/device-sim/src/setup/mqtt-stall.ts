/**
 * A router that drops MQTT (failure "no-server-response", docs/device-sim.md §13.2): a local TCP listener that
 * accepts connections and never answers, so a real MQTT client waits for CONNACK in vain.
 */
import net from "node:net";

/** A running stall: where to connect, and how to take it down. */
export interface MqttStall {
  /** `mqtt://127.0.0.1:<port>`. */
  url: string;
  /** Destroys every accepted socket and stops listening. */
  close(): void;
}

/**
 * Opens a stall on a free loopback port. @returns its URL and `close`.
 * @throws the listen error (e.g. no free port).
 */
export async function openMqttStall(): Promise<MqttStall> {
  const sockets = new Set<net.Socket>();
  const server = net.createServer((socket) => {
    sockets.add(socket);
    socket.on("error", () => undefined);
    socket.on("close", () => sockets.delete(socket));
  });
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(0, "127.0.0.1", () => resolve());
  });
  return {
    url: `mqtt://127.0.0.1:${(server.address() as net.AddressInfo).port}`,
    close() {
      for (const s of sockets) s.destroy();
      server.close();
    },
  };
}
