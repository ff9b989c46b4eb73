import dgram from "node:dgram";

/** The only host the development bridge sends to: the simulator on this machine (docs/device-protocol.md §13.6). */
export const LOOPBACK = "127.0.0.1";

/** One datagram received by {@link loopbackExchange}. */
export interface UdpAnswer {
  /** Sender's address (always 127.0.0.1: other senders are ignored). */
  address: string;
  port: number;
  packet: Uint8Array;
}

/** Options of {@link loopbackExchange}. */
export interface ExchangeOptions {
  /** UDP port on 127.0.0.1 to send to (a configured simulator port, never one from a request). */
  port: number;
  /** The datagram to send, built once the local socket is bound (the hello packet carries the phone's port). */
  packet: (localPort: number) => Uint8Array;
  /** How long to collect answers after sending, ms. */
  timeoutMs: number;
  /** Stop collecting early once an answer satisfies this. */
  until?: (answer: UdpAnswer) => boolean;
}

/**
 * Sends one datagram from a fresh UDP socket bound to 127.0.0.1 (an ephemeral port) to 127.0.0.1:`port` and
 * collects every datagram that comes back from 127.0.0.1 until `timeoutMs` has passed (or `until` is satisfied),
 * then closes the socket. A socket error after sending (e.g. ICMP port unreachable) ends the wait early with what
 * arrived so far.
 * @throws the socket's error when it cannot be bound or the datagram cannot be sent.
 */
export function loopbackExchange(options: ExchangeOptions): Promise<UdpAnswer[]> {
  return new Promise((resolve, reject) => {
    const socket = dgram.createSocket("udp4");
    const answers: UdpAnswer[] = [];
    let sent = false;
    let done = false;
    let timer: NodeJS.Timeout | undefined;
    const finish = (err?: Error) => {
      if (done) return;
      done = true;
      clearTimeout(timer);
      socket.close();
      if (err && !sent) reject(err);
      else resolve(answers);
    };
    socket.on("error", (err) => finish(err));
    socket.on("message", (msg, rinfo) => {
      if (done || rinfo.address !== LOOPBACK) return;
      const answer = { address: rinfo.address, port: rinfo.port, packet: new Uint8Array(msg) };
      answers.push(answer);
      if (options.until?.(answer)) finish();
    });
    socket.bind(0, LOOPBACK, () => {
      let packet: Uint8Array;
      try {
        packet = options.packet(socket.address().port);
      } catch (err) {
        finish(err as Error);
        return;
      }
      socket.send(packet, options.port, LOOPBACK, (err) => {
        if (done) return;
        if (err) return finish(err);
        sent = true;
        timer = setTimeout(() => finish(), options.timeoutMs);
      });
    });
  });
}
