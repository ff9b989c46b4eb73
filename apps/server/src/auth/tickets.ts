import { createHash } from "node:crypto";
import { errors as joseErrors, jwtVerify, SignJWT } from "jose";
import { loadOrCreateSecret } from "./secrets.ts";

/** File in DATA_DIR holding the HS256 key of verification tickets (apart from the access-token key). */
export const TICKET_KEY_FILE = "ticket-signing-key";
/** A verification ticket is valid for 10 minutes (seconds). */
export const TICKET_TTL_SECONDS = 600;
const ISSUER = "aquapilot";

/** What a ticket allows; a ticket of one purpose is refused for any other. */
export type TicketPurpose = "change-identity";

/** The user state a ticket is bound to: it dies when the password (stamp), e-mail or phone changes. */
export interface TicketSubject {
  id: string;
  security_stamp: string;
  email: string | null;
  phone_number: string | null;
}

/**
 * Short-lived, single-purpose, signed verification tickets (spec §5 "Change phone or e-mail: password verification
 * first"): proof that the user typed their password a moment ago. Stateless: an HS256 JWT whose audience is the
 * purpose, bound to the user id and to a digest of the user's security stamp, e-mail and phone — so it is spent as
 * soon as the identity it was issued for changes, and dead after a password change or account deletion.
 */
export interface TicketService {
  /** Issues a ticket for `purpose`, valid {@link TICKET_TTL_SECONDS}. */
  issue(purpose: TicketPurpose, user: TicketSubject): Promise<{ ticket: string; expiresIn: number }>;
  /**
   * Answers the user id of a valid ticket of `purpose`; null when the signature, purpose or expiry is wrong.
   * The caller then checks {@link TicketService.matches} against the user's current row.
   */
  verify(purpose: TicketPurpose, ticket: string): Promise<{ userId: string; state: string } | null>;
  /** True when the ticket's state digest equals the user's current one (same stamp, e-mail and phone). */
  matches(state: string, user: TicketSubject): boolean;
}

function stateOf(user: TicketSubject): string {
  return createHash("sha256")
    .update(`${user.security_stamp}\n${user.email ?? ""}\n${user.phone_number ?? ""}`)
    .digest("base64url");
}

/** Creates the {@link TicketService}; the key lives in `dataDir/ticket-signing-key`; `now` is the clock. */
export function createTicketService(opts: { dataDir: string; now?: () => Date }): TicketService {
  const key = loadOrCreateSecret(opts.dataDir, TICKET_KEY_FILE);
  const now = opts.now ?? (() => new Date());
  return {
    async issue(purpose, user) {
      const iat = Math.floor(now().getTime() / 1000);
      const ticket = await new SignJWT({ st: stateOf(user) })
        .setProtectedHeader({ alg: "HS256", typ: "ticket+jwt" })
        .setSubject(user.id)
        .setIssuer(ISSUER)
        .setAudience(`aquapilot:${purpose}`)
        .setIssuedAt(iat)
        .setExpirationTime(iat + TICKET_TTL_SECONDS)
        .sign(key);
      return { ticket, expiresIn: TICKET_TTL_SECONDS };
    },
    async verify(purpose, ticket) {
      try {
        const { payload } = await jwtVerify(ticket, key, {
          algorithms: ["HS256"],
          issuer: ISSUER,
          audience: `aquapilot:${purpose}`,
          typ: "ticket+jwt",
          currentDate: now(),
        });
        if (typeof payload.sub !== "string" || typeof payload.st !== "string") return null;
        return { userId: payload.sub, state: payload.st };
      } catch (err) {
        if (err instanceof joseErrors.JOSEError) return null;
        throw err;
      }
    },
    matches(state, user) {
      return state === stateOf(user);
    },
  };
}
