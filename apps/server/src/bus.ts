import { EventEmitter } from "node:events";
import type { TDeviceChangeMessage, TDomainEvent, TMessage } from "@aquapilot/contract";

/**
 * Events that cross module boundaries inside the server: the device gateway announces changes,
 * the hubs deliver them. In-process by default; a Redis pub/sub implementation of the same
 * interface lets N server processes share them (docs/deploy.md).
 */
export type BusEvent =
  /** A device's state, online flag, event or acknowledgement changed; deliver to every member of `familyId`. */
  | { type: "device.changed"; familyId: string | null; deviceId: string; message: TDeviceChangeMessage }
  /** A user's access ended (logout everywhere, password change, deletion, removal from a family). */
  | { type: "user.revoked"; userId: string }
  /**
   * Fields of the user that a signed-in request carries changed (user name, name, e-mail, phone, language, master
   * flag): per-process caches of the user's token checks drop them. Access is unchanged (hubs ignore it).
   */
  | { type: "user.changed"; userId: string }
  /** One session (sign-in) of the user ended (logout, replayed refresh token): hubs close its connections. */
  | { type: "session.ended"; userId: string; sessionId: string }
  /** Membership of a family changed: hubs re-evaluate who receives that family's device events. */
  | { type: "family.members-changed"; familyId: string }
  /**
   * The household's device list changed in a way no `device.changed` announces (its order): per-process
   * copies of the list drop it (modules/family-device/list-cache.ts). Hubs ignore it.
   */
  | { type: "family.devices-changed"; familyId: string }
  /**
   * One change a call made, named by kind and ids (contract ZDomainEvent; http/route-events.ts declares one per
   * mutating call): hub 1 sends it as `DomainEvent` to every session of every member of `event.familyId` and of
   * `event.userId`, so every open screen of theirs fetches what it shows again.
   */
  | { type: "domain.event"; event: TDomainEvent }
  /** A message was stored for `userId`; hub 2 sends it as ReceiveMessage to that user's sessions. */
  | { type: "message.created"; userId: string; message: TMessage }
  /**
   * A server process's gateway is alive and holds its devices' subscriptions (sent every second;
   * iot/assignment.ts): the gateways share the devices out among the live ones. Hubs ignore it.
   */
  | { type: "gateway.alive"; gatewayId: string }
  /** A gateway is stopping: the others take its devices at once. Hubs ignore it. */
  | { type: "gateway.leaving"; gatewayId: string }
  /**
   * A device's broker account was just created (`mac`: 12 upper-case hex digits): the gateway that owns
   * it subscribes to its topics before the device can connect. Hubs ignore it.
   */
  | { type: "device.provisioned"; mac: string };

export interface Bus {
  /** True when other server processes share this bus (Redis): their gateways can be heard. */
  readonly crossProcess: boolean;
  /** Delivers the event to every subscriber (in this process, or in every process for a shared bus). */
  publish(event: BusEvent): void;
  /** Registers a handler; returns the function that removes it. */
  subscribe(handler: (event: BusEvent) => void): () => void;
  /**
   * Registers a handler for the events this process published only: work that must happen once per event
   * across N processes — recording what a device reported — runs in the process whose gateway handled the message.
   * Returns the function that removes it.
   */
  subscribeLocal(handler: (event: BusEvent) => void): () => void;
  close(): Promise<void>;
}

/** The in-process bus: an EventEmitter; handlers run synchronously in publish order. */
export class InProcessBus implements Bus {
  private readonly emitter = new EventEmitter({ captureRejections: false });
  /** Only this process hears this bus. */
  readonly crossProcess = false;
  constructor() {
    this.emitter.setMaxListeners(0);
  }
  publish(event: BusEvent): void {
    this.emitter.emit("event", event);
  }
  subscribe(handler: (event: BusEvent) => void): () => void {
    this.emitter.on("event", handler);
    return () => this.emitter.off("event", handler);
  }
  /** Every event of this bus is this process's own: the same as {@link InProcessBus.subscribe}. */
  subscribeLocal(handler: (event: BusEvent) => void): () => void {
    return this.subscribe(handler);
  }
  async close(): Promise<void> {
    this.emitter.removeAllListeners();
  }
}
