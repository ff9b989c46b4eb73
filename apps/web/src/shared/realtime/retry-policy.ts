import type { IRetryPolicy, RetryContext } from "@microsoft/signalr";
import { isSessionEndError } from "./session-end.ts";

/** First retry waits between half of this and this, ms. */
export const RETRY_BASE_MS = 1000;
/** No retry waits longer than this, ms; retries never stop. */
export const RETRY_MAX_MS = 30_000;

/**
 * The wait before retry number `attempt` (0 for the first retry after a drop or a failed start), ms: exponential
 * backoff with "equal jitter" — the ceiling min(`maxMs`, `baseMs` · 2^attempt), and a wait drawn uniformly between
 * half the ceiling and the ceiling (0.5–1 s, 1–2 s, 2–4 s … 15–30 s, then 15–30 s forever). The jitter spreads the
 * clients of a restarted server apart; the floor keeps a flapping network from being hammered.
 * `random` answers [0, 1) (tests fix it).
 */
export function backoffDelay(
  attempt: number,
  random: () => number = Math.random,
  baseMs = RETRY_BASE_MS,
  maxMs = RETRY_MAX_MS,
): number {
  const ceiling = Math.min(maxMs, baseMs * 2 ** Math.max(0, attempt));
  return Math.round(ceiling / 2 + random() * (ceiling / 2));
}

/**
 * The app's reconnect policy for `@microsoft/signalr`'s `withAutomaticReconnect`: {@link backoffDelay} of the number
 * of retries so far — the client keeps reconnecting, however long the server is away — unless an attempt
 * is refused because the sign-in is over.
 */
export class ForeverRetryPolicy implements IRetryPolicy {
  private readonly delay: (attempt: number) => number;
  /** @param delay the wait for a retry number, ms (default {@link backoffDelay}) */
  constructor(delay: (attempt: number) => number = (attempt) => backoffDelay(attempt)) {
    this.delay = delay;
  }

  /**
   * The wait before the next reconnect attempt, ms; null only when the last attempt said the sign-in is over
   * ({@link isSessionEndError}: a 401 needs a new token, not another try with the same one) — the connection then
   * closes and its channel asks its session check.
   */
  nextRetryDelayInMilliseconds(context: RetryContext): number | null {
    if (context.retryReason && isSessionEndError(context.retryReason)) return null;
    return this.delay(context.previousRetryCount);
  }
}
