import { HUB_CLOSE_ERRORS } from "@aquapilot/contract/wire";
import { refreshAccessToken } from "../api/token.ts";

/**
 * Whether a hub's error says the sign-in behind the connection is over, not that the network or server failed: the
 * server closed it for good (every session of the user ended, or this one: contract `HUB_CLOSE_ERRORS`), or the
 * negotiation was refused as unauthorised (HTTP 401; 404 for a token whose session ended on another process).
 */
export function isSessionEndError(error: Error): boolean {
  const text = error.message;
  return (
    text.includes(HUB_CLOSE_ERRORS.accessEnded) ||
    text.includes(HUB_CLOSE_ERRORS.sessionEnded) ||
    /Status code '40[14]'/.test(text)
  );
}

/**
 * Asked when a hub says the sign-in is over ({@link isSessionEndError}): resolves true when the session goes on (a
 * renewed token: the channel starts again) and false when it ended (the channel stops for good; the caller has
 * already told the app why). Rejections count as "goes on" (a network failure is not an ending).
 */
export type SessionCheck = (error: Error) => Promise<boolean>;

/**
 * The app's {@link SessionCheck}: exchanges the refresh token. A new token means the session goes on (the hub had an
 * old one); a refused refresh means it ended — token.ts has then noted why (password changed, account deleted…) and
 * raised the unauthorised event, which takes the app to Login saying it. A network failure rejects (not an ending).
 */
export async function sessionGoesOn(): Promise<boolean> {
  return (await refreshAccessToken()) !== null;
}
