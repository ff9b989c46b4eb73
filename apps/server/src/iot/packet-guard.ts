import { Duplex } from "node:stream";

/**
 * The packet size limit of the embedded broker (docs/device-protocol.md §1): Aedes and mqtt-packet have no
 * such limit and buffer a packet whole (up to 256 MB) before anyone can look at it, so the bytes of a connection are
 * scanned on their way in and the connection is closed as soon as a packet *announces* more than the limit, before
 * a byte of its body reaches the MQTT parser.
 */

/**
 * Follows MQTT packet boundaries in a byte stream (MQTT 3.1.1 §2.2: one byte of type and flags, then the remaining
 * length in 1–4 bytes of 7 bits each, then that many bytes), without buffering. Pure state machine.
 */
export class MqttFrameScanner {
  private state: "type" | "length" | "body" = "type";
  private length = 0;
  private multiplier = 1;
  private lengthBytes = 0;
  private bodyLeft = 0;
  /** The remaining length of the packet that broke the limit, or -1 for a malformed length; null while all is well. */
  refused: number | null = null;

  private readonly maxRemainingLength: number;
  /** @param maxRemainingLength the largest remaining length (bytes after the fixed header) let through. */
  constructor(maxRemainingLength: number) {
    this.maxRemainingLength = maxRemainingLength;
  }

  /**
   * Reads the next bytes of the stream. Answers how many bytes of `chunk` belong to packets within the limit: all
   * of them normally; fewer when a packet announcing more than the limit (or a malformed length) starts in it — the
   * count then ends where that packet begins, and {@link refused} is set. After a refusal every call answers 0.
   */
  feed(chunk: Uint8Array): number {
    if (this.refused !== null) return 0;
    let packetStart = 0;
    let i = 0;
    while (i < chunk.length) {
      if (this.state === "body") {
        const take = Math.min(this.bodyLeft, chunk.length - i);
        i += take;
        this.bodyLeft -= take;
        if (this.bodyLeft === 0) this.state = "type";
        continue;
      }
      if (this.state === "type") {
        packetStart = i;
        i++;
        this.state = "length";
        this.length = 0;
        this.multiplier = 1;
        this.lengthBytes = 0;
        continue;
      }
      const b = chunk[i++];
      this.length += (b & 0x7f) * this.multiplier;
      this.multiplier *= 128;
      this.lengthBytes++;
      if (this.length > this.maxRemainingLength) {
        this.refused = this.length;
        return packetStart;
      }
      if (b & 0x80) {
        if (this.lengthBytes >= 4) {
          this.refused = -1;
          return packetStart;
        }
        continue;
      }
      this.bodyLeft = this.length;
      this.state = this.bodyLeft === 0 ? "type" : "body";
    }
    return chunk.length;
  }
}

/** A connection that lets through only packets within a size limit; handed to Aedes in place of the socket. */
class GuardedConnection extends Duplex {
  private readonly scanner: MqttFrameScanner;

  private readonly socket: Duplex;
  constructor(socket: Duplex, maxRemainingLength: number, onRefused: (remainingLength: number) => void) {
    super({ allowHalfOpen: false });
    this.socket = socket;
    this.scanner = new MqttFrameScanner(maxRemainingLength);
    socket.on("data", (chunk: Buffer) => {
      const allowed = this.scanner.feed(chunk);
      if (allowed < chunk.length) {
        if (allowed > 0) this.push(chunk.subarray(0, allowed));
        onRefused(this.scanner.refused ?? -1);
        this.destroy();
        return;
      }
      if (!this.push(chunk)) socket.pause();
    });
    socket.on("end", () => this.push(null));
    socket.on("drain", () => this.emit("drain"));
    socket.on("error", (err) => this.destroy(err));
    socket.on("close", () => this.destroy());
  }

  override _read(): void {
    this.socket.resume();
  }

  override _write(chunk: Buffer, encoding: BufferEncoding, callback: (error?: Error | null) => void): void {
    this.socket.write(chunk, encoding, callback);
  }

  /**
   * Writes go straight to the socket, outside this stream's own write queue: only what arrives is guarded, and the
   * broker writes every packet corked (mqtt-packet), so the socket's cork sends a packet's parts in one system call
   * (fewer system calls on the ingest path). Backpressure follows the socket: false when its buffer is full, `drain`
   * when it empties.
   */
  override write(chunk: unknown, encoding?: unknown, callback?: unknown): boolean {
    return (this.socket.write as (...args: unknown[]) => boolean)(chunk, encoding, callback);
  }

  override cork(): void {
    this.socket.cork();
  }

  override uncork(): void {
    this.socket.uncork();
  }

  override _final(callback: (error?: Error | null) => void): void {
    this.socket.end(callback);
  }

  override _destroy(err: Error | null, callback: (error?: Error | null) => void): void {
    this.socket.destroy();
    callback(err);
  }
}

/**
 * Wraps a client connection (a TCP socket) so that Aedes reads only packets whose remaining length is at most
 * `maxRemainingLength` bytes: the first packet announcing more (or a malformed length) closes the connection before
 * its body is read, and `onRefused(remainingLength)` is called (-1 for a malformed length). Writes pass unchanged.
 */
export function guardPacketSize(
  socket: Duplex,
  maxRemainingLength: number,
  onRefused: (remainingLength: number) => void,
): Duplex {
  return new GuardedConnection(socket, maxRemainingLength, onRefused);
}
