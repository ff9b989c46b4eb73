import { createHash, randomBytes } from "node:crypto";
import { SimulatedDevice, type SimulatedDeviceOptions } from "./device.ts";
import { Rng, seedFrom } from "./random.ts";
import { type Scheduler, SharedScheduler } from "./scheduler.ts";

/** One device of a fleet: its identity and credentials as the cloud knows them. */
export interface FleetDeviceSpec {
  mac: string;
  secret: string;
  name?: string;
  model?: string;
  serialNumber?: string;
  deviceSerialNumber?: string;
}

/** Options of {@link createFleet}. */
export interface FleetOptions {
  brokerUrl: string;
  devices: FleetDeviceSpec[];
  /** Simulated seconds per real second for every device (default 1). */
  timeScale?: number;
  /** Base seed; each device derives its own from it and its MAC (default 1). */
  seed?: number;
  /** Devices connecting at once during start (default 10), so the broker's password checks are not flooded. */
  connectConcurrency?: number;
  /**
   * Timer source shared by every device (default: a new {@link SharedScheduler} of the fleet's own, so the whole fleet
   * runs on one Node timer).
   */
  scheduler?: Scheduler;
  /** Extra options applied to every device (tick and report intervals, logging). */
  deviceOptions?: Partial<Omit<SimulatedDeviceOptions, "brokerUrl" | "mac" | "secret">>;
}

/** A set of simulated softeners started and stopped together. */
export interface Fleet {
  readonly devices: SimulatedDevice[];
  /** The timer source every device of the fleet runs on. */
  readonly scheduler: Scheduler;
  /**
   * Starts every device, a few at a time, and resolves once each has made its first connection attempt; resolves the
   * number connected then. A device refused or unable to connect keeps retrying forever with jittered backoff (issue
   * 14), so one bad device or a broker that is down never holds the fleet (or the server starting it) back.
   * @throws only when devices are built with `reconnectPeriodMs: 0`: the first connection error.
   */
  start(): Promise<number>;
  /** Devices connected now. */
  readonly connectedCount: number;
  /** Stops every device cleanly (retained offline status, DISCONNECT). */
  stop(): Promise<void>;
  /** The device with this MAC (any separators), or undefined. */
  get(mac: string): SimulatedDevice | undefined;
}

/**
 * Builds a fleet of {@link SimulatedDevice}s on one broker. Each household differs (persons 1–5, raw-water
 * hardness 120–400 mg/L CaCO₃, resin 15–35 L) but is deterministic for a given seed and MAC. Every device runs on the
 * fleet's one scheduler (model ticks, telemetry, OTA steps, MQTT keep-alive; docs/device-sim.md §14) and holds one
 * MQTT connection of its own, as a real valve does.
 */
export function createFleet(options: FleetOptions): Fleet {
  const baseSeed = options.seed ?? 1;
  const scheduler = options.scheduler ?? new SharedScheduler();
  const devices = options.devices.map((spec) => {
    const seed = seedFrom(`${baseSeed}:${spec.mac}`);
    const rng = new Rng(seed);
    return new SimulatedDevice({
      brokerUrl: options.brokerUrl,
      mac: spec.mac,
      secret: spec.secret,
      model: spec.model,
      serialNumber: spec.serialNumber,
      deviceSerialNumber: spec.deviceSerialNumber,
      timeScale: options.timeScale ?? 1,
      seed,
      family: { persons: 1 + Math.floor(rng.next() * 5) },
      utcOffsetMinutes: -new Date().getTimezoneOffset(),
      scheduler,
      ...options.deviceOptions,
      settings: {
        rawWaterHardness: Math.round(rng.between(120, 400)),
        resinVolume: Math.round(rng.between(15, 35)),
        ...options.deviceOptions?.settings,
      },
    });
  });
  return {
    devices,
    scheduler,
    async start() {
      const concurrency = Math.max(1, options.connectConcurrency ?? 10);
      for (let i = 0; i < devices.length; i += concurrency) {
        await Promise.all(devices.slice(i, i + concurrency).map((d) => d.startConnecting()));
      }
      return devices.filter((d) => d.connected).length;
    },
    get connectedCount() {
      return devices.filter((d) => d.connected).length;
    },
    async stop() {
      await Promise.all(devices.map((d) => d.stop()));
    },
    get(mac: string) {
      const wanted = mac.replace(/[^0-9a-fA-F]/g, "").toUpperCase();
      return devices.find((d) => d.mac === wanted);
    },
  };
}

/** A simulated device's factory identity. */
export interface DeviceIdentity {
  /** 12 upper-case hex digits; the first octet is 0x02 (locally administered, never a real vendor's). */
  mac: string;
  /** Provisioning secret (MQTT password), 32 random bytes base64url — always from node:crypto. */
  secret: string;
  /** Control valve serial number. */
  serialNumber: string;
  /** Device serial number. */
  deviceSerialNumber: string;
  model: string;
}

const MODELS = ["AQ-S15", "AQ-S25", "AQ-S35"] as const;

/**
 * Makes a new factory identity. With `seed` the MAC, serial numbers and model are reproducible (the secret is
 * still random); without, they are random too.
 */
export function generateDeviceIdentity(seed?: string | number): DeviceIdentity {
  const bytes =
    seed === undefined
      ? randomBytes(16)
      : createHash("sha256").update(`aquapilot-sim:${seed}`).digest().subarray(0, 16);
  const mac = `02${bytes.subarray(0, 5).toString("hex")}`.toUpperCase();
  const serial = bytes.readUInt32BE(8).toString().padStart(10, "0");
  return {
    mac,
    secret: randomBytes(32).toString("base64url"),
    serialNumber: `RV${serial}`,
    deviceSerialNumber: `AQ${mac.slice(6)}${serial.slice(-4)}`,
    model: MODELS[bytes[12] % MODELS.length],
  };
}
