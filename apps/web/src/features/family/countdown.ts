import { useEffect, useState } from "react";

/**
 * The QR share code's countdown (spec §4 "Family QR code valid 15 minutes, refreshable"; §9 QR validity 15 min).
 * The deadline is taken from the server's `validSeconds` counted from when this client received the code, so a
 * phone whose clock is off still shows the true remaining time; `expiresAt` is used when `validSeconds` is missing.
 */

/** Milliseconds since the epoch at which a received code stops being valid. */
export function shareCodeDeadline(code: {
  receivedAt: number;
  validSeconds?: number | null;
  expiresAt?: string;
}): number {
  if (typeof code.validSeconds === "number" && code.validSeconds > 0) return code.receivedAt + code.validSeconds * 1000;
  const parsed = code.expiresAt ? Date.parse(code.expiresAt) : Number.NaN;
  return Number.isFinite(parsed) ? parsed : code.receivedAt;
}

/** Whole seconds left until `deadline` (ms) at `now` (ms), rounded up so 0 means expired; never negative. */
export function remainingSeconds(deadline: number, now: number): number {
  return Math.max(0, Math.ceil((deadline - now) / 1000));
}

/** Formats seconds as mm:ss (minutes are not capped: 15 min → "15:00", 61 s → "01:01", 0 → "00:00"). */
export function formatCountdown(seconds: number): string {
  const s = Math.max(0, Math.floor(seconds));
  const mm = String(Math.floor(s / 60)).padStart(2, "0");
  const ss = String(s % 60).padStart(2, "0");
  return `${mm}:${ss}`;
}

/**
 * Seconds left until `deadline` (ms since epoch) as React state, ticking every second and stopping at 0.
 * `null` deadline → null.
 */
export function useCountdown(deadline: number | null, now: () => number = Date.now): number | null {
  const [left, setLeft] = useState(() => (deadline === null ? null : remainingSeconds(deadline, now())));
  useEffect(() => {
    if (deadline === null) {
      setLeft(null);
      return;
    }
    const tick = () => {
      const next = remainingSeconds(deadline, now());
      setLeft(next);
      return next;
    };
    if (tick() === 0) return;
    const timer = setInterval(() => {
      if (tick() === 0) clearInterval(timer);
    }, 1000);
    return () => clearInterval(timer);
  }, [deadline, now]);
  return left;
}
