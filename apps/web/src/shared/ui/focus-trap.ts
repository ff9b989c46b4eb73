import { handleBack, openDialogCount } from "./back-stack.ts";

/**
 * Keyboard focus of modal dialogs and bottom sheets (WCAG 2.4.3 Focus Order, 2.1.1 Keyboard, 4.1.2 Name, Role,
 * Value): an open one holds the focus — it moves in when it opens, Tab and Shift+Tab cycle through its controls, focus
 * that lands behind it is brought back — and gives it back to the element it came from when it closes. Escape closes
 * the top one as the system back button does (spec §2 back stack), so the keyboard is never stuck in it (WCAG 2.1.2).
 *
 * Several may be open at once (a confirm over a sheet): the newest holds the focus and the ones below are hidden from
 * assistive technology; when it closes the one below holds it again. A dialog whose element left the document without being released (its root removed wholesale) is
 * dropped.
 */

/** Elements that can take the keyboard focus, before the checks of {@link tabbableIn}. */
const FOCUSABLE = [
  "a[href]",
  "area[href]",
  "button",
  'input:not([type="hidden"])',
  "select",
  "textarea",
  "iframe",
  "audio[controls]",
  "video[controls]",
  "summary",
  '[contenteditable]:not([contenteditable="false"])',
  "[tabindex]",
].join(",");

/**
 * The element that names a dialog when it has no label of its own: a heading, antd-mobile's dialog title or action
 * sheet heading (`extra`), or the title element of the app's sheets (`sheet__title`, `wheel-popup__title`, …).
 */
const TITLE = [
  "h1,h2,h3,h4,h5,h6",
  '[role="heading"]',
  ".adm-dialog-title",
  ".adm-action-sheet-extra",
  '[class$="__title"]',
  '[class*="__title "]',
].join(",");

/** Input types that take no typing (no on-screen keyboard opens when they get the focus). */
const NON_TEXT_INPUTS = new Set(["button", "checkbox", "color", "file", "image", "radio", "range", "reset", "submit"]);

/** How many animation frames the first focus is tried again while the dialog's element is not shown yet. */
const FIRST_FOCUS_FRAMES = 30;

interface Trap {
  container: HTMLElement;
  /** Where the focus goes back to when the dialog closes. */
  opener: HTMLElement | null;
  /** Takes away the attributes the trap set on the container. */
  unmark: () => void;
  frame: number | null;
  /** A dialog above it has hidden it from assistive technology (aria-hidden). */
  covered: boolean;
}

/** The open dialogs, the one holding the focus last. */
const traps: Trap[] = [];
let listening = false;

function isShown(el: HTMLElement): boolean {
  if (typeof el.checkVisibility === "function") return el.checkVisibility({ visibilityProperty: true });
  return el.getClientRects().length > 0;
}

/** Of a radio group only the checked radio (or the first, with none checked) is a Tab stop, as in the browser. */
function isRadioStop(el: HTMLElement, candidates: HTMLElement[]): boolean {
  if (!(el instanceof HTMLInputElement) || el.type !== "radio" || !el.name) return true;
  const group = candidates.filter(
    (other): other is HTMLInputElement =>
      other instanceof HTMLInputElement && other.type === "radio" && other.name === el.name && other.form === el.form,
  );
  return el === (group.find((radio) => radio.checked) ?? group[0]);
}

/**
 * The elements of `container` that Tab stops on, in document order: focusable, not disabled, not `inert`, with a
 * tabIndex of 0 or more, shown (not `display: none` or `visibility: hidden` themselves or through an ancestor), one
 * per radio group. Positive tabIndex values are taken in document order (the app uses none). Never throws.
 */
export function tabbableIn(container: HTMLElement): HTMLElement[] {
  const candidates = [...container.querySelectorAll<HTMLElement>(FOCUSABLE)].filter(
    (el) => el.tabIndex >= 0 && !el.matches(":disabled") && !el.closest("[inert]") && isShown(el),
  );
  return candidates.filter((el) => isRadioStop(el, candidates));
}

/** True for a control whose focus opens the on-screen keyboard (a text field). */
function takesTyping(el: HTMLElement): boolean {
  if (el instanceof HTMLTextAreaElement || el.isContentEditable) return true;
  return el instanceof HTMLInputElement && !NON_TEXT_INPUTS.has(el.type);
}

/**
 * Hides a dialog under a newer one from assistive technology while it is covered: only the top dialog is modal, and
 * screen readers that do not honour aria-modal would otherwise read the one below too.
 */
function cover(trap: Trap): void {
  if (trap.covered || trap.container.hasAttribute("aria-hidden")) return;
  trap.container.setAttribute("aria-hidden", "true");
  trap.covered = true;
}

function uncover(trap: Trap): void {
  if (!trap.covered) return;
  trap.container.removeAttribute("aria-hidden");
  trap.covered = false;
}

/** The dialog holding the focus (shown to assistive technology); dialogs whose element left the document are dropped. */
function topTrap(): Trap | null {
  for (let top = traps.at(-1); top; top = traps.at(-1)) {
    if (top.container.isConnected) {
      uncover(top);
      return top;
    }
    traps.pop();
    top.unmark();
    if (top.frame !== null) cancelAnimationFrame(top.frame);
  }
  stopListening();
  return null;
}

/**
 * Puts the focus in the dialog unless it is there already (a control of its own with `autoFocus`): on its first
 * control, or on the dialog itself when that control is a text field (on a phone the keyboard would open over the
 * sheet as it slides in) or it has none. True when the focus is in the dialog afterwards.
 */
function focusFirst(trap: Trap): boolean {
  const { container } = trap;
  if (container.contains(document.activeElement)) return true;
  const first = tabbableIn(container)[0];
  (first && !takesTyping(first) ? first : container).focus({ preventScroll: true });
  return container.contains(document.activeElement);
}

/** Tries {@link focusFirst} on each animation frame until it succeeds: a sheet may be shown a frame after it opens. */
function focusFirstSoon(trap: Trap, framesLeft: number): void {
  trap.frame = null;
  if (focusFirst(trap) || framesLeft <= 0 || typeof requestAnimationFrame !== "function") return;
  trap.frame = requestAnimationFrame(() => {
    if (topTrap() === trap) focusFirstSoon(trap, framesLeft - 1);
  });
}

/** Tab after the last control goes to the first, Shift+Tab before the first goes to the last. */
function onKeyDownCapture(event: KeyboardEvent): void {
  if (event.key !== "Tab" || event.altKey || event.ctrlKey || event.metaKey) return;
  const trap = topTrap();
  if (!trap) return;
  const { container } = trap;
  event.preventDefault();
  const stops = tabbableIn(container);
  if (stops.length === 0) {
    container.focus({ preventScroll: true });
    return;
  }
  const active = document.activeElement;
  const inside = active instanceof HTMLElement && container.contains(active) ? active : null;
  const following = (el: HTMLElement) =>
    inside !== null && (inside.compareDocumentPosition(el) & Node.DOCUMENT_POSITION_FOLLOWING) !== 0;
  const target = event.shiftKey
    ? inside === null || inside === container
      ? stops.at(-1)
      : (stops.findLast((el) => el !== inside && !following(el)) ?? stops.at(-1))
    : (stops.find((el) => el !== inside && following(el)) ?? stops[0]);
  target?.focus();
}

/** Escape closes the top overlay as a back press would (only overlays: the page itself never goes back on Escape). */
function onKeyDown(event: KeyboardEvent): void {
  if (event.key !== "Escape" || event.defaultPrevented || event.isComposing) return;
  if (!topTrap() || openDialogCount() === 0) return;
  event.preventDefault();
  handleBack();
}

/** Focus that lands behind the open dialog (a script, a screen reader, tabbing back in from the browser) returns to it. */
function onFocusIn(event: FocusEvent): void {
  const trap = topTrap();
  if (!trap || !(event.target instanceof Node) || trap.container.contains(event.target)) return;
  focusFirst(trap);
}

function startListening(): void {
  if (listening) return;
  listening = true;
  document.addEventListener("keydown", onKeyDownCapture, true);
  document.addEventListener("keydown", onKeyDown);
  document.addEventListener("focusin", onFocusIn, true);
}

function stopListening(): void {
  if (!listening) return;
  listening = false;
  document.removeEventListener("keydown", onKeyDownCapture, true);
  document.removeEventListener("keydown", onKeyDown);
  document.removeEventListener("focusin", onFocusIn, true);
}

let titleIds = 0;

/**
 * Makes `container` a modal dialog for assistive technology where it is not yet: focusable by script (tabIndex -1),
 * role "dialog", aria-modal, and a name (`label`, else its title element, else antd-mobile's dialog message). Returns
 * the function that takes away what was added.
 */
function markModal(container: HTMLElement, label: string | undefined): () => void {
  const added: string[] = [];
  const set = (name: string, value: string) => {
    if (container.hasAttribute(name)) return;
    container.setAttribute(name, value);
    added.push(name);
  };
  set("tabindex", "-1");
  set("role", "dialog");
  set("aria-modal", "true");
  let titleWithId: HTMLElement | null = null;
  if (!container.hasAttribute("aria-label") && !container.hasAttribute("aria-labelledby")) {
    // Without a title, a dialog is named by its message (a confirmation that is only its question).
    const title = label
      ? null
      : (container.querySelector<HTMLElement>(TITLE) ?? container.querySelector<HTMLElement>(".adm-dialog-content"));
    if (label) set("aria-label", label);
    else if (title) {
      if (!title.id) {
        titleIds += 1;
        title.id = `dialog-title-${titleIds}`;
        titleWithId = title;
      }
      set("aria-labelledby", title.id);
    }
  }
  return () => {
    for (const name of added) container.removeAttribute(name);
    titleWithId?.removeAttribute("id");
  };
}

/** What {@link trapFocus} may be told. */
export interface FocusTrapOptions {
  /** The dialog's accessible name when it has none (else its heading or `…__title` element names it). */
  label?: string;
}

/**
 * Makes `container` (a shown dialog or sheet element, in the document) modal for the keyboard until the returned
 * function is called (WCAG 2.4.3 Focus Order, 2.1.2 No Keyboard Trap, 4.1.2 Name, Role, Value):
 * - it gets tabIndex -1, role "dialog", aria-modal "true" and a name (`options.label`, else its heading or title
 *   element) where it has none of its own — taken away again on release;
 * - the focus moves in: to its first control, or to the container itself when that control is a text field or there
 *   is none (tried on each frame until the container is shown, ~0.5 s at most);
 * - Tab and Shift+Tab cycle through its controls ({@link tabbableIn}), focus landing outside it is brought back, and
 *   Escape runs a back press when the back stack has an open overlay (shared/ui/back-stack.ts), which closes it;
 * - a dialog it opens over is hidden from assistive technology (aria-hidden) until it closes;
 * - the release gives the focus back to the element that had it when the trap was made, if that is still in the
 *   document and the focus is still in the dialog (or nowhere). Releasing a dialog under another one hands its opener
 *   to the one above that was opened from it. Calling the release again does nothing.
 * Never throws; a container that leaves the document unreleased stops trapping.
 */
export function trapFocus(container: HTMLElement, options: FocusTrapOptions = {}): () => void {
  const active = document.activeElement;
  const opener =
    active instanceof HTMLElement && active !== document.body && !container.contains(active) ? active : null;
  const below = topTrap();
  if (below) cover(below);
  const trap: Trap = { container, opener, unmark: markModal(container, options.label), frame: null, covered: false };
  traps.push(trap);
  startListening();
  focusFirstSoon(trap, FIRST_FOCUS_FRAMES);
  let released = false;
  return () => {
    if (released) return;
    released = true;
    release(trap);
  };
}

function release(trap: Trap): void {
  if (trap.frame !== null) cancelAnimationFrame(trap.frame);
  trap.frame = null;
  trap.unmark();
  uncover(trap);
  const index = traps.indexOf(trap);
  if (index < 0) return;
  const wasTop = index === traps.length - 1;
  traps.splice(index, 1);
  if (!wasTop) {
    // A dialog opened from this one returns the focus to where this one would have.
    for (const above of traps.slice(index)) {
      if (above.opener && trap.container.contains(above.opener)) above.opener = trap.opener;
    }
    return;
  }
  // The dialog below, if any, is shown to assistive technology again before the focus goes back into it.
  const below = topTrap();
  const focused = document.activeElement;
  const focusLost = !focused || focused === document.body || trap.container.contains(focused);
  if (focusLost && trap.opener?.isConnected) trap.opener.focus({ preventScroll: true });
  if (below && !below.container.contains(document.activeElement)) focusFirst(below);
}
