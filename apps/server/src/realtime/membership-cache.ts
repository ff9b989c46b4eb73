/**
 * How long a family's deliveries may wait for its membership reload before they run anyway (ms). Default of
 * {@link MembershipCache}'s `reloadLimitMs`.
 */
export const MEMBERSHIP_RELOAD_LIMIT_MS = 10_000;

/**
 * Where the cache loads memberships from (the hubs' `HubAuth` fits it): the families a user belongs to and,
 * optionally, the users a family has.
 */
export interface MembershipSource {
  /** ids of the families the user currently belongs to */
  familyIdsOf(userId: string): Promise<string[]>;
  /**
   * Optional: ids of the users who currently belong to the family. When present, a members change costs one query
   * instead of one `familyIdsOf` per connected user.
   */
  memberIdsOf?(familyId: string): Promise<string[]>;
}

/** Where the cache reports reloads that failed (the hubs pass their logger). */
export interface MembershipLogger {
  warn(obj: object, msg: string): void;
}

/**
 * Told when a connected user no longer belongs to families they belonged to (a removal, a leave, a deletion seen by a
 * reload or by a newer load): the user's id and the family ids lost. Called synchronously, after the cache has
 * applied the change and before the connection being added (if any) joins the user's connections, so the user's
 * connections it sees are exactly those made while they still belonged to those families.
 */
export type FamiliesLostListener = (userId: string, familyIds: string[]) => void;

/** One load of a user's families: its sequence number (a later load never loses to an earlier one) and the ids. */
export interface FamilyLoad {
  seq: number;
  families: string[];
}

interface UserEntry<C> {
  families: Set<string>;
  connections: Set<C>;
  /** Sequence number of the family load that produced `families`. */
  loadSeq: number;
}

interface FamilyGate {
  /** membership reloads of this family still running */
  running: number;
  /** deliveries to this family that arrived meanwhile, run in order once membership is known */
  queue: (() => void)[];
}

function withTimeout<T>(promise: Promise<T>, ms: number, what: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const limit = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`${what} took longer than ${ms} ms`)), ms);
    timer.unref();
  });
  return Promise.race([promise, limit]).finally(() => clearTimeout(timer));
}

/**
 * Which connected user belongs to which families, and which connections (`C`, the hubs' HubClient) each user holds.
 * Only users with at least one connection are kept: the first connection brings the user's families in, the last one
 * to leave takes them out. Both directions are indexed (user → families, family → users).
 *
 * Rules:
 * - Loads are numbered; a load older than the one a user's families came from is ignored, so a slow load never
 *   overwrites a newer one.
 * - {@link loadFamilies} loads again (up to 3 more times) when a members change happened while it ran, so a connect
 *   racing a change ends with the changed membership.
 * - {@link membersChanged} reloads a family's membership (one `memberIdsOf` query, or without it every connected
 *   user's families, overlapping reloads sharing one follow-up run). Until it is known, {@link whenKnown} queues that
 *   family's deliveries and runs them in order afterwards, so a delivery made after the change never reaches a
 *   removed member and does reach an added one. A reload that fails or outlasts `reloadLimitMs` is logged and the
 *   queue runs anyway.
 * - Whenever a connected user's families shrink (a reload, or a newer load brought by another connection), the
 *   `onLost` listener hears which ones (the hubs close that user's hub-1 connections).
 */
export class MembershipCache<C> {
  private readonly users = new Map<string, UserEntry<C>>();
  /** familyId → ids of connected users who belong to it (only users with at least one connection). */
  private readonly familyMembers = new Map<string, Set<string>>();
  private readonly gates = new Map<string, FamilyGate>();
  private loadSeq = 0;
  /** Bumped on every members change: a load that overlapped one loads again. */
  private epoch = 0;
  private reloadAllRunning: Promise<void> | null = null;
  private reloadAllNext: Promise<void> | null = null;

  private readonly source: MembershipSource;
  private readonly log: MembershipLogger;
  private readonly reloadLimitMs: number;
  private readonly onLost: FamiliesLostListener | null;
  /**
   * @param source where memberships are loaded from
   * @param log where failed reloads are reported
   * @param reloadLimitMs how long a family's deliveries wait for its reload at most (ms)
   * @param onLost told when a connected user loses families ({@link FamiliesLostListener}); none by default
   */
  constructor(
    source: MembershipSource,
    log: MembershipLogger,
    reloadLimitMs = MEMBERSHIP_RELOAD_LIMIT_MS,
    onLost?: FamiliesLostListener,
  ) {
    this.source = source;
    this.log = log;
    this.reloadLimitMs = reloadLimitMs;
    this.onLost = onLost ?? null;
  }

  /**
   * Loads the user's families for a connection about to be added, again if a members change happened meanwhile (so
   * the result is current). Rejects with the source's error.
   */
  async loadFamilies(userId: string): Promise<FamilyLoad> {
    for (let attempt = 0; ; attempt++) {
      const epoch = this.epoch;
      const seq = ++this.loadSeq;
      const families = await this.source.familyIdsOf(userId);
      if (epoch === this.epoch || attempt >= 3) return { seq, families };
    }
  }

  /**
   * Adds a connection of the user, with the user's families as `loaded` (ignored if older than what is cached). When
   * the load is newer and lacks families the user's other connections were made with, `onLost` hears it first.
   */
  add(userId: string, connection: C, loaded: FamilyLoad): void {
    let entry = this.users.get(userId);
    if (!entry) {
      entry = { families: new Set(), connections: new Set(), loadSeq: 0 };
      this.users.set(userId, entry);
    }
    this.apply(userId, loaded.seq, loaded.families);
    entry.connections.add(connection);
  }

  /**
   * Removes a connection of the user. Answers true when it was the user's last one: the user and their families
   * have then left the cache. False when the connection was not there or the user holds others.
   */
  remove(userId: string, connection: C): boolean {
    const entry = this.users.get(userId);
    if (!entry?.connections.delete(connection) || entry.connections.size > 0) return false;
    this.users.delete(userId);
    for (const familyId of entry.families) this.removeFamilyMember(familyId, userId);
    return true;
  }

  /** The user's connections (empty when none). Live: copy it before closing connections while iterating. */
  connectionsOf(userId: string): ReadonlySet<C> {
    return this.users.get(userId)?.connections ?? new Set();
  }

  /** How many connections the user holds. */
  connectionCount(userId: string): number {
    return this.users.get(userId)?.connections.size ?? 0;
  }

  /** The cached families of a connected user (empty when the user holds no connection). */
  familiesOf(userId: string): ReadonlySet<string> {
    return this.users.get(userId)?.families ?? new Set();
  }

  /** The connected users who belong to the family (empty when none). */
  membersOf(familyId: string): ReadonlySet<string> {
    return this.familyMembers.get(familyId) ?? new Set();
  }

  /** Runs `deliver` now, or, while the family's membership reloads, queues it to run in order once it is known. */
  whenKnown(familyId: string, deliver: () => void): void {
    const gate = this.gates.get(familyId);
    if (gate) gate.queue.push(deliver);
    else deliver();
  }

  /**
   * The family's members changed: reloads its membership and holds its deliveries ({@link whenKnown}) until that is
   * done. The answer settles once the held deliveries have run (callers may ignore it; it never rejects for a failed
   * reload, which is logged).
   */
  membersChanged(familyId: string): Promise<void> {
    this.epoch++;
    let gate = this.gates.get(familyId);
    if (!gate) {
      gate = { running: 0, queue: [] };
      this.gates.set(familyId, gate);
    }
    gate.running++;
    const held = gate;
    const reload = this.source.memberIdsOf ? this.reloadMembers(familyId) : this.reloadAllUsers();
    return withTimeout(reload, this.reloadLimitMs, "family membership reload")
      .catch((error: unknown) => this.log.warn({ err: error, familyId }, "realtime: membership reload failed"))
      .finally(() => {
        const current = this.gates.get(familyId);
        if (current !== held) return; // released meanwhile
        held.running--;
        if (held.running > 0) return;
        this.gates.delete(familyId);
        for (const deliver of held.queue) deliver();
      });
  }

  /** Drops every held delivery and pending gate (shutdown); reloads still running then change nothing they hold. */
  releaseGates(): void {
    this.gates.clear();
  }

  private apply(userId: string, seq: number, families: string[]): void {
    const entry = this.users.get(userId);
    if (!entry || seq <= entry.loadSeq) return;
    entry.loadSeq = seq;
    const next = new Set(families);
    const lost: string[] = [];
    for (const familyId of entry.families) {
      if (next.has(familyId)) continue;
      this.removeFamilyMember(familyId, userId);
      lost.push(familyId);
    }
    for (const familyId of next) {
      if (entry.families.has(familyId)) continue;
      let members = this.familyMembers.get(familyId);
      if (!members) {
        members = new Set();
        this.familyMembers.set(familyId, members);
      }
      members.add(userId);
    }
    entry.families = next;
    if (lost.length > 0 && entry.connections.size > 0) this.onLost?.(userId, lost);
  }

  private removeFamilyMember(familyId: string, userId: string): void {
    const members = this.familyMembers.get(familyId);
    members?.delete(userId);
    if (members?.size === 0) this.familyMembers.delete(familyId);
  }

  private async reloadMembers(familyId: string): Promise<void> {
    const members = new Set(await this.source.memberIdsOf!(familyId));
    for (const [userId, entry] of this.users) {
      if (members.has(userId) === entry.families.has(familyId)) continue;
      const families = new Set(entry.families);
      if (members.has(userId)) families.add(familyId);
      else families.delete(familyId);
      this.apply(userId, ++this.loadSeq, [...families]);
    }
  }

  /** Reloads the families of every connected user; overlapping calls share one follow-up run. */
  private reloadAllUsers(): Promise<void> {
    if (!this.reloadAllRunning) {
      this.reloadAllRunning = this.reloadEveryUser().finally(() => {
        this.reloadAllRunning = null;
      });
      return this.reloadAllRunning;
    }
    this.reloadAllNext ??= this.reloadAllRunning.then(() => {
      this.reloadAllNext = null;
      return this.reloadAllUsers();
    });
    return this.reloadAllNext;
  }

  private async reloadEveryUser(): Promise<void> {
    await Promise.all(
      [...this.users.keys()].map(async (userId) => {
        const seq = ++this.loadSeq;
        try {
          this.apply(userId, seq, await this.source.familyIdsOf(userId));
        } catch (error) {
          this.log.warn({ err: error, userId }, "realtime: family reload failed");
        }
      }),
    );
  }
}
