/**
 * The per-user connection limit (HubOptions.maxConnectionsPerUser, counted per process): who holds how many slots.
 * A slot is held by a live connection, a pending negotiation (connection.ts `Negotiations`) or an upgrade between its
 * token check and its attach, so a burst of upgrades cannot overshoot the limit while they await their family load.
 */

/** Where the slots held elsewhere are counted: live connections and pending negotiations of a user. */
export interface HeldSlots {
  /** Live connections of the user on this process (both hubs). */
  live(userId: string): number;
  /** Negotiations of the user answered here and not yet attached. */
  negotiating(userId: string): number;
}

/**
 * Counts each user's slots of the limit (live connections + pending negotiations + upgrades in progress) and holds
 * the slots of upgrades in progress. A refused caller is answered 429 with Retry-After (negotiate.ts, upgrade.ts);
 * nothing already held is ever dropped for a newcomer.
 */
export class ConnectionSlots {
  /** Most slots one user may hold (HubOptions.maxConnectionsPerUser). */
  readonly limit: number;
  private readonly held: HeldSlots;
  /** userId → upgrades past their token check and not yet attached. */
  private readonly upgrading = new Map<string, number>();

  /**
   * @param limit most slots one user may hold, live connections, negotiations and upgrades together.
   * @param held where live connections and pending negotiations are counted.
   */
  constructor(limit: number, held: HeldSlots) {
    this.limit = limit;
    this.held = held;
  }

  /** Slots of the per-user limit in use: live connections, pending negotiations and upgrades in progress. */
  inUse(userId: string): number {
    return this.held.live(userId) + this.held.negotiating(userId) + (this.upgrading.get(userId) ?? 0);
  }

  /** Whether the user holds every slot the limit allows (a new negotiation or connection must be refused). */
  isFull(userId: string): boolean {
    return this.inUse(userId) >= this.limit;
  }

  /**
   * Runs `body` (an upgrade from its family load to its attach) holding one slot of `userId`, released when `body`
   * settles. Answers (or rejects with) what `body` does.
   */
  async duringUpgrade<T>(userId: string, body: () => Promise<T>): Promise<T> {
    this.addUpgrading(userId, 1);
    try {
      return await body();
    } finally {
      this.addUpgrading(userId, -1);
    }
  }

  /** Forgets the upgrades in progress (shutdown). */
  clear(): void {
    this.upgrading.clear();
  }

  private addUpgrading(userId: string, delta: 1 | -1): void {
    const next = (this.upgrading.get(userId) ?? 0) + delta;
    if (next > 0) this.upgrading.set(userId, next);
    else this.upgrading.delete(userId);
  }
}
