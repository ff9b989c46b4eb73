/**
 * The per-process caches of what every authenticated request re-reads, which profiling showed as a request's largest
 * cost: the access token check (user row, security stamp, session; auth-service.ts) and household membership
 * (membership-cache.ts, route level only). Each entry lives at most `ttlMs` (AUTH_CACHE_MS, default 5 s) and is dropped at once
 * by the bus events that change what it holds:
 *
 * | bus event | drops |
 * | --- | --- |
 * | `user.revoked` | the user's token checks and memberships |
 * | `session.ended` | the session's token checks |
 * | `user.changed` | the user's token checks (profile fields `request.user` carries) |
 * | `family.members-changed` | every cached membership of that household |
 *
 * The in-process bus runs handlers synchronously inside `publish`, so in one process the very next request after a
 * logout, password change or removal reads the database again. Another process hears the event through a shared bus;
 * without one (or when an event is lost) the entry still goes after `ttlMs`.
 */

import type { Bus, BusEvent } from "../bus.ts";

/** Default lifetime of a cached token check or membership (ms): AUTH_CACHE_MS. */
export const DEFAULT_AUTH_CACHE_MS = 5_000;

/** Default bound on the entries one cache holds; the oldest stored entry goes first beyond it. */
export const DEFAULT_CACHE_ENTRIES = 20_000;

interface Entry<V> {
  value: V;
  /** `clock()` value (ms) after which the entry is stale. */
  expiresAt: number;
  tags: readonly string[];
}

/** Options of an {@link InvalidatedCache}. */
export interface InvalidatedCacheOptions {
  /** Lifetime of an entry in ms; 0 (or less) turns the cache off: every lookup loads. */
  ttlMs: number;
  /** Bound on the number of entries (default {@link DEFAULT_CACHE_ENTRIES}); the oldest stored goes first. */
  maxEntries?: number;
  /** Monotonic clock in ms (default `performance.now`); tests move it. */
  clock?: () => number;
}

/**
 * A small map of values with a lifetime and tags: {@link invalidate} drops every entry carrying a tag (e.g.
 * `user:<id>`, `session:<id>`, `family:<id>`). A load that was running while any invalidation happened is answered but
 * not stored, so a read that started before a change can never put the old value back after the change's event.
 * Entries are checked for age when read; the map never holds more than `maxEntries`.
 */
export class InvalidatedCache<V> {
  private readonly entries = new Map<string, Entry<V>>();
  private readonly byTag = new Map<string, Set<string>>();
  /** Bumped by every invalidation: a load that overlapped one is not stored. */
  private generation = 0;
  private readonly ttlMs: number;
  private readonly maxEntries: number;
  private readonly clock: () => number;
  /** Ends {@link follow}'s subscription. */
  private unfollow: () => void = () => {};

  /** @throws RangeError when `maxEntries` is below 1. */
  constructor(options: InvalidatedCacheOptions) {
    this.ttlMs = options.ttlMs;
    this.maxEntries = options.maxEntries ?? DEFAULT_CACHE_ENTRIES;
    if (this.maxEntries < 1) throw new RangeError("maxEntries must be at least 1");
    this.clock = options.clock ?? (() => performance.now());
  }

  /** Whether entries are kept at all (`ttlMs` > 0). */
  get enabled(): boolean {
    return this.ttlMs > 0;
  }

  /** Number of entries held now (stale ones included until they are read or pushed out). */
  get size(): number {
    return this.entries.size;
  }

  /** The fresh value under `key`, or undefined (absent or older than `ttlMs`, which drops it). */
  get(key: string): V | undefined {
    const entry = this.entries.get(key);
    if (!entry) return undefined;
    if (this.clock() >= entry.expiresAt) {
      this.remove(key, entry);
      return undefined;
    }
    return entry.value;
  }

  /**
   * The fresh value under `key`, else `load()`'s answer. The answer is stored under `key` with the tags
   * `tagsOf(answer)` names, unless that is null (not to be kept, e.g. a refusal) or an invalidation happened while
   * `load` ran. Errors of `load` propagate; nothing is stored then.
   */
  async getOrLoad(key: string, load: () => Promise<V>, tagsOf: (value: V) => readonly string[] | null): Promise<V> {
    const cached = this.get(key);
    if (cached !== undefined) return cached;
    const generation = this.generation;
    const value = await load();
    if (!this.enabled || generation !== this.generation) return value;
    const tags = tagsOf(value);
    if (tags) this.set(key, tags, value);
    return value;
  }

  /** Drops every entry carrying `tag`, and keeps loads that are running now from storing their answer. */
  invalidate(tag: string): void {
    this.generation++;
    const keys = this.byTag.get(tag);
    if (!keys) return;
    for (const key of [...keys]) {
      const entry = this.entries.get(key);
      if (entry) this.remove(key, entry);
    }
    this.byTag.delete(tag);
  }

  /** Drops everything (and keeps running loads from storing). */
  clear(): void {
    this.generation++;
    this.entries.clear();
    this.byTag.clear();
  }

  /**
   * Follows `bus` (only while the cache is on): each event drops the entries of every tag `tagsDropped(event)` names.
   * Until {@link close}. Call once.
   */
  follow(bus: Pick<Bus, "subscribe">, tagsDropped: (event: BusEvent) => readonly string[]): void {
    if (!this.enabled) return;
    this.unfollow = bus.subscribe((event) => {
      for (const tag of tagsDropped(event)) this.invalidate(tag);
    });
  }

  /** Stops following the bus and empties the cache. Call once, at shutdown. */
  close(): void {
    this.unfollow();
    this.clear();
  }

  private set(key: string, tags: readonly string[], value: V): void {
    const old = this.entries.get(key);
    if (old) this.remove(key, old);
    while (this.entries.size >= this.maxEntries) {
      const [oldestKey, oldest] = this.entries.entries().next().value as [string, Entry<V>];
      this.remove(oldestKey, oldest);
    }
    this.entries.set(key, { value, expiresAt: this.clock() + this.ttlMs, tags });
    for (const tag of tags) {
      let keys = this.byTag.get(tag);
      if (!keys) {
        keys = new Set();
        this.byTag.set(tag, keys);
      }
      keys.add(key);
    }
  }

  private remove(key: string, entry: Entry<V>): void {
    this.entries.delete(key);
    for (const tag of entry.tags) {
      const keys = this.byTag.get(tag);
      if (!keys) continue;
      keys.delete(key);
      if (keys.size === 0) this.byTag.delete(tag);
    }
  }
}

/** Tag of everything cached about a user (token checks, memberships). */
export const userTag = (userId: string): string => `user:${userId}`;
/** Tag of the token checks of one session. */
export const sessionTag = (sessionId: string): string => `session:${sessionId}`;
/** Tag of the cached memberships of one household. */
export const familyTag = (familyId: string): string => `family:${familyId}`;
