import net from "node:net";

/** How often the link hands the browser its next bytes, in ms: ten pieces a second, as a slow radio trickles them. */
const TICK_MS = 100;

/** A slow network between the browser and the system, under the test's control (see {@link startSlowLink}). */
export interface SlowLink {
  /** The system's URL through the link (same paths): open the app here so its every request crosses the link. */
  url: string;
  /**
   * Limits what reaches the browser to `bytesPerSecond` (raw bytes on the wire, headers and compressed bodies as sent),
   * shared by all its connections, from now on, also for an answer already under way; null lifts the limit.
   */
  throttle(bytesPerSecond: number | null): void;
  /** Holds every byte for the browser until {@link SlowLink.resume} (a stalled connection: nothing is lost). */
  pause(): void;
  /** Lets the held bytes go on at the current limit. */
  resume(): void;
  /**
   * Plays a server that went away: every connection through the link is reset and new ones are refused until
   * {@link SlowLink.restore} (the browser sees what it sees when the server process stops).
   */
  cut(): void;
  /** Lets connections through again after {@link SlowLink.cut}. */
  restore(): void;
  /** Closes the link and every connection through it. */
  close(): Promise<void>;
}

/**
 * Starts a TCP relay on 127.0.0.1 in front of `targetUrl` (an http:// URL) that plays a slow mobile network: what the
 * browser sends reaches the server at once; what the server answers reaches the browser at the set rate, in pieces
 * every {@link TICK_MS} ms, exactly as the server wrote it (a compressed answer stays compressed, so the browser
 * decodes it as it arrives, as it does on a real slow link).
 *
 * Why not DevTools' `Network.emulateNetworkConditions`: how the browser paces and hands over a throttled answer is
 * its own choice and has changed between Chromium builds (one build handed a throttled 25 kB compressed CSV to the
 * page in two reads at the very end), and a download's throttling cannot be changed once it runs. Bytes on a socket
 * are what a phone on a slow network gets.
 * @throws when the port cannot be bound.
 */
export async function startSlowLink(targetUrl: string): Promise<SlowLink> {
  const target = new URL(targetUrl);
  let rate: number | null = null;
  let paused = false;
  let cut = false;
  /** Connections with bytes waiting for the browser, served in turn. */
  const waiting: Array<{ socket: net.Socket; queue: Buffer[]; ended: boolean }> = [];
  const sockets = new Set<net.Socket>();
  let timer: ReturnType<typeof setTimeout> | null = null;

  /** Writes up to `budget` bytes of one connection's queue to the browser; returns what it wrote. */
  function send(entry: (typeof waiting)[number], budget: number): number {
    let sent = 0;
    while (entry.queue.length > 0 && sent < budget) {
      const head = entry.queue[0];
      const piece = head.length <= budget - sent ? head : head.subarray(0, budget - sent);
      if (piece === head) entry.queue.shift();
      else entry.queue[0] = head.subarray(piece.length);
      if (!entry.socket.destroyed) entry.socket.write(piece);
      sent += piece.length;
    }
    if (entry.queue.length === 0 && entry.ended && !entry.socket.destroyed) entry.socket.end();
    return sent;
  }

  /** Hands out one tick's bytes, round robin over the connections, and plans the next tick while any are left. */
  function pump(): void {
    timer = null;
    if (paused) return;
    let budget = rate === null ? Number.POSITIVE_INFINITY : Math.max(1, Math.round((rate * TICK_MS) / 1000));
    while (budget > 0 && waiting.length > 0) {
      const entry = waiting[0];
      const share = rate === null ? Number.POSITIVE_INFINITY : Math.max(1, Math.ceil(budget / waiting.length));
      const sent = send(entry, Math.min(share, budget));
      budget -= sent;
      waiting.shift();
      if (entry.queue.length > 0) waiting.push(entry);
    }
    if (waiting.length > 0) timer = setTimeout(pump, TICK_MS);
  }

  function schedule(): void {
    if (timer || paused) return;
    if (rate === null) pump();
    else timer = setTimeout(pump, TICK_MS);
  }

  const server = net.createServer((browser) => {
    if (cut) {
      browser.resetAndDestroy();
      return;
    }
    const upstream = net.connect(Number(target.port), target.hostname);
    sockets.add(browser);
    sockets.add(upstream);
    const entry = { socket: browser, queue: [] as Buffer[], ended: false };
    browser.pipe(upstream);
    upstream.on("data", (data: Buffer) => {
      entry.queue.push(data);
      if (!waiting.includes(entry)) waiting.push(entry);
      schedule();
    });
    upstream.on("end", () => {
      entry.ended = true;
      if (entry.queue.length === 0) browser.end();
    });
    const drop = () => {
      browser.destroy();
      upstream.destroy();
      sockets.delete(browser);
      sockets.delete(upstream);
      const i = waiting.indexOf(entry);
      if (i >= 0) waiting.splice(i, 1);
    };
    browser.on("error", drop);
    upstream.on("error", drop);
    browser.on("close", drop);
  });
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(0, "127.0.0.1", resolve);
  });
  const { port } = server.address() as net.AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    throttle(bytesPerSecond) {
      rate = bytesPerSecond;
      if (timer) clearTimeout(timer);
      timer = null;
      schedule();
    },
    pause() {
      paused = true;
      if (timer) clearTimeout(timer);
      timer = null;
    },
    resume() {
      paused = false;
      schedule();
    },
    cut() {
      cut = true;
      for (const socket of sockets) socket.resetAndDestroy();
    },
    restore() {
      cut = false;
    },
    close: async () => {
      if (timer) clearTimeout(timer);
      for (const socket of sockets) socket.destroy();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
