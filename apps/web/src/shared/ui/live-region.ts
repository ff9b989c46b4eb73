/**
 * Screen reader announcements through two persistent, visually hidden live regions at the end of `document.body`: a
 * polite one (role "status") and an assertive one (role "alert"). They are made once, before the first message
 * (screen readers follow only changes of a live region they already know); a message is put in after a short pause
 * with the region emptied first, so the same text twice in a row is announced twice.
 */

/** How urgent a message is: "status" waits for the screen reader to finish, "alert" interrupts it. */
export type Politeness = "status" | "alert";

/** Pause between emptying a region and writing the message into it, in ms. */
export const ANNOUNCE_DELAY_MS = 100;
/** How long a message stays in its region after it was written (time to be read out), in ms. */
export const ANNOUNCE_KEEP_MS = 7_000;

const regions = new Map<Politeness, HTMLElement>();
let writeTimer: ReturnType<typeof setTimeout> | null = null;
let clearTimer: ReturnType<typeof setTimeout> | null = null;

/** The region for `politeness`, made (again, if something emptied the body) when it is not in the document. */
function region(politeness: Politeness): HTMLElement {
  const known = regions.get(politeness);
  if (known?.isConnected) return known;
  const el = document.createElement("div");
  el.setAttribute("role", politeness);
  el.setAttribute("aria-live", politeness === "alert" ? "assertive" : "polite");
  el.setAttribute("aria-atomic", "true");
  // Out of sight but read by screen readers: the stylesheet's class, as the content policy refuses style attributes.
  el.className = "visually-hidden";
  el.dataset.liveRegion = politeness;
  document.body.appendChild(el);
  regions.set(politeness, el);
  return el;
}

/**
 * Puts both live regions in the document now, ahead of any message (WCAG 4.1.3 Status Messages: a region added
 * together with its text is often not announced). Does nothing without a document (e.g. a prerender in Node); never
 * throws otherwise.
 */
export function prepareLiveRegions(): void {
  if (typeof document === "undefined" || !document.body) return;
  region("status");
  region("alert");
}

function stopTimers(): void {
  if (writeTimer) clearTimeout(writeTimer);
  if (clearTimer) clearTimeout(clearTimer);
  writeTimer = null;
  clearTimer = null;
}

/**
 * Announces `text` to screen readers without showing anything (WCAG 4.1.3 Status Messages): in the polite "status"
 * region, or the assertive "alert" one for a failure. The message replaces the one before (in either region). It is
 * written after {@link ANNOUNCE_DELAY_MS} and taken away {@link ANNOUNCE_KEEP_MS} later — unless `keep` is true: a
 * message that stands while something lasts (e.g. "Loading") stays until the next one or {@link clearAnnouncement}.
 * Blank text only clears. Does nothing without a document; never throws.
 */
export function announce(text: string, politeness: Politeness = "status", keep = false): void {
  if (typeof document === "undefined" || !document.body) return;
  clearAnnouncement();
  const message = text.trim();
  if (!message) return;
  // Made now when missing, so the region is in the document before its text is.
  region(politeness);
  writeTimer = setTimeout(() => {
    writeTimer = null;
    // The page may be gone by then (a test's document torn down, a page being left).
    if (typeof document === "undefined" || !document.body) return;
    region(politeness).textContent = message;
    if (!keep) clearTimer = setTimeout(clearAnnouncement, ANNOUNCE_KEEP_MS);
  }, ANNOUNCE_DELAY_MS);
}

/** Empties both live regions and drops a message still waiting to be written. Never throws. */
export function clearAnnouncement(): void {
  stopTimers();
  for (const el of regions.values()) el.textContent = "";
}
