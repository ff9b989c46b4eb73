import dgram from "node:dgram";
import type { DevSystem } from "@aquapilot/dev";
import {
  attachBluetoothPeripheral,
  type BluetoothPeripheral,
  type CdpSession,
  isBluetoothEmulationAlive,
  SetupModeDevice,
  type SetupTiming,
} from "@aquapilot/device-sim";
import type { BrowserContext, CDPSession } from "playwright-core";
import { accessToken, apiCall, registerByEmail } from "./api.ts";

/**
 * Module timings for browser tests (real ms): the same walk as docs/device-protocol.md §13.2/§13.3, shorter waits,
 * so each failure shows within a few seconds.
 */
export const FAST_SETUP_TIMING: SetupTiming = {
  association: 300,
  apScanTimeout: 900,
  passwordReject: 500,
  dhcp: 150,
  dnsTimeout: 800,
  httpTimeout: 5000,
  connackTimeout: 1500,
  moduleDeadline: 4000,
  apCloseAfterAck: 200,
  apReopenAfterFailedJoin: 3000,
};

/** A new owner with one household of their own, as after registering and creating it. */
export interface NewOwner {
  email: string;
  password: string;
  token: string;
  familyId: string;
}

/**
 * Registers a new owner through the real e-mail flow and creates their first household over the API, as the setup
 * tests start: a new owner adding a new softener.
 * @throws when registration, sign-in or household creation is refused.
 */
export async function newOwnerWithFamily(system: DevSystem, name: string, lang = "en"): Promise<NewOwner> {
  const email = `${name}-${Date.now()}@example.test`;
  const password = "setup-owner-1";
  await registerByEmail(system.url, email, password, lang);
  const token = await accessToken(system.url, email, password);
  const created = await apiCall<{ id: string }>(system.url, "/api/run-lucky/device/app/family", {
    method: "POST",
    token,
    lang,
    body: { name: `${name}'s home`, address: "12 Spring Lane", longitude: 2.35, latitude: 48.85 },
  });
  if (created.status !== 200) throw new Error(`household for ${email}: HTTP ${created.status}`);
  return { email, password, token, familyId: created.result.id };
}

/**
 * Chromium's Bluetooth emulation for the whole browser of a context (a browser-level CDP session: the domain exists
 * only there), with a powered-on LE adapter.
 *
 * Seen in Chromium 156: once a page that used Web Bluetooth loads another document (a reload, a sign-in from
 * scratch), the session's emulation stops working ("BluetoothEmulation not enabled", while enabling again answers
 * "already enabled") and its peripherals are gone. A new browser-level session can enable it again, so
 * {@link BluetoothRadio.renew} replaces the session; attach modules after renewing.
 */
export class BluetoothRadio {
  private readonly context: BrowserContext;
  private current: CDPSession;
  private constructor(context: BrowserContext, current: CDPSession) {
    this.context = context;
    this.current = current;
  }

  /** Starts the emulation (powered-on, LE) on a new browser-level session of `context`'s browser. */
  static async start(context: BrowserContext): Promise<BluetoothRadio> {
    return new BluetoothRadio(context, await BluetoothRadio.open(context));
  }

  private static async open(context: BrowserContext): Promise<CDPSession> {
    const browser = context.browser();
    if (!browser) throw new Error("no browser behind this context");
    const session = await browser.newBrowserCDPSession();
    await session.send("BluetoothEmulation.enable", { state: "powered-on", leSupported: true });
    return session;
  }

  /** The current browser-level session. */
  get session(): CDPSession {
    return this.current;
  }

  /** Whether the emulation still answers on the current session (it also sets the adapter to powered-on). */
  alive(): Promise<boolean> {
    return isBluetoothEmulationAlive(this.current as unknown as CdpSession);
  }

  /** Replaces the session when the emulation stopped answering (see the class note); keeps a live one. */
  async renew(): Promise<CDPSession> {
    if (await this.alive()) return this.current;
    await this.current.detach().catch(() => undefined);
    this.current = await BluetoothRadio.open(this.context);
    return this.current;
  }
}

/** A setup-mode softener for one test, and what it takes to put it away. */
export interface TestModule {
  device: SetupModeDevice;
  /** New generation only: the emulated Bluetooth peripheral. */
  peripheral: BluetoothPeripheral | null;
  stop(): Promise<void>;
}

/**
 * Starts a setup-mode softener registered with `system` (the real cloud: factory route, activation, broker), and for
 * the new generation makes it a Bluetooth peripheral of the browser behind `bluetooth`.
 */
export async function startModule(
  system: DevSystem,
  opts: {
    generation: "new" | "old";
    /** What runs on its Wi-Fi module (default the simulator's, stock). */
    firmware?: "stock" | "product";
    failure?: string;
    timing?: Partial<SetupTiming>;
    /** New generation: the browser's Bluetooth emulation the module joins (renewed first when needed). */
    bluetooth?: BluetoothRadio;
    apPort?: number;
    lanPort?: number;
  },
): Promise<TestModule> {
  const device = new SetupModeDevice({
    generation: opts.generation,
    firmware: opts.firmware,
    failure: opts.failure as never,
    serverUrl: system.url,
    timing: { ...FAST_SETUP_TIMING, ...opts.timing },
    apPort: opts.apPort,
    lanPort: opts.lanPort,
    timeScale: 1,
  });
  await device.start();
  const radio = opts.generation === "new" && opts.bluetooth ? await opts.bluetooth.renew() : null;
  const peripheral = radio
    ? await attachBluetoothPeripheral(radio as unknown as CdpSession, device, { alreadyEnabled: true })
    : null;
  return {
    device,
    peripheral,
    stop: async () => {
      await peripheral?.detach();
      await device.stop();
    },
  };
}

/** Two free UDP ports on 127.0.0.1 (for the old module's access point and home-network sides). */
export async function freeUdpPorts(): Promise<[number, number]> {
  const one = async () => {
    const socket = dgram.createSocket("udp4");
    await new Promise<void>((resolve) => socket.bind(0, "127.0.0.1", resolve));
    const port = socket.address().port;
    await new Promise<void>((resolve) => socket.close(() => resolve()));
    return port;
  };
  const a = await one();
  let b = await one();
  while (b === a) b = await one();
  return [a, b];
}
