import type { TTokenEndedReason } from "@aquapilot/contract/wire";
import { getItem, removeItem, setItem } from "../storage/index.ts";

/**
 * Why a session ended without the owner signing out (docs/architecture.md "Endings"), each with its text on Login:
 * `loginExpired` — a 401 or a refused refresh with no reason given (spec §8 "Login expired"); `passwordChanged` —
 * the password was changed or reset (on another phone, or by a code); `accountDeleted`; `sessionEnded` — this
 * phone's session was signed out elsewhere.
 */
export type SessionEnding = "loginExpired" | "passwordChanged" | "accountDeleted" | "sessionEnded";

/** The text key of each ending (app locales, group "start": Login shows it). */
export const ENDING_TEXT = {
  loginExpired: "errors.loginExpired",
  passwordChanged: "ending.passwordChanged",
  accountDeleted: "ending.accountDeleted",
  sessionEnded: "ending.sessionEnded",
} as const satisfies Record<SessionEnding, string>;

/** The ending of a refresh refused with the token endpoint's `ended_reason` (contract TOKEN_ENDED_REASONS). */
export function endingOfReason(reason: TTokenEndedReason | null | undefined): SessionEnding {
  switch (reason) {
    case "password-changed":
    case "password-reset":
      return "passwordChanged";
    case "account-deleted":
      return "accountDeleted";
    case "logout":
      return "sessionEnded";
    default:
      return "loginExpired";
  }
}

/**
 * Remembers why the session ended, for Login to say (kept across the reload that may follow). A specific reason is
 * never replaced by the generic `loginExpired` that the 401s after it bring.
 */
export function noteEnding(ending: SessionEnding): void {
  const known = getItem("sessionEnding");
  if (ending === "loginExpired" && known && known !== "loginExpired") return;
  setItem("sessionEnding", ending);
}

/** Why the last session ended, or null (nothing to say: a first sign-in, or the owner signed out). */
export function readEnding(): SessionEnding | null {
  const known = getItem("sessionEnding");
  return known && known in ENDING_TEXT ? (known as SessionEnding) : null;
}

/** Forgets the ending (a new sign-in, or the owner signed out themselves). */
export function clearEnding(): void {
  removeItem("sessionEnding");
}
