/**
 * The phone's text size, as the page is drawn with it (WCAG 1.4.4 "Resize text"). A phone enlarges a web view's text,
 * not its layout: Android's system font size through the WebView's text zoom, iOS's preferred text size and a mobile
 * browser's text setting through CSS `text-size-adjust`. Every one shows in the computed font size, so the app
 * measures it rather than asking each platform. From {@link LARGE_TEXT_SCALE} on, `<html data-large-text>` switches
 * the layout to one where text wraps instead of being cut (styles.css "large text"), and `--text-scale` carries the
 * factor for the few heights that must follow the text (the tab bar).
 */

/** Text scale from which the large-text layout applies (130 %: the first of Android's large font steps above 115 %). */
export const LARGE_TEXT_SCALE = 1.3;

/** Font size of the probe, CSS px: large enough that rounding of the computed size does not matter. */
const PROBE_PX = 100;

/**
 * The factor by which the page's text is drawn larger than its CSS asks (1 = as written, 2 = 200 %), measured on a
 * hidden probe in `doc`'s body; 1 when there is no body yet or the size cannot be read.
 */
export function measureTextScale(doc: Document = document): number {
  const body = doc.body;
  if (!body) return 1;
  const probe = doc.createElement("span");
  probe.setAttribute("aria-hidden", "true");
  probe.style.cssText = `position:absolute;visibility:hidden;pointer-events:none;font-size:${PROBE_PX}px`;
  probe.textContent = "A";
  body.append(probe);
  const drawn = Number.parseFloat(getComputedStyle(probe).fontSize);
  probe.remove();
  return Number.isFinite(drawn) && drawn > 0 ? Math.round((drawn / PROBE_PX) * 100) / 100 : 1;
}

/**
 * Writes `scale` onto `doc`'s root element: `--text-scale` always, `data-large-text` while `scale` is at least
 * {@link LARGE_TEXT_SCALE} (removed below it).
 */
export function applyTextScale(scale: number, doc: Document = document): void {
  const root = doc.documentElement;
  root.style.setProperty("--text-scale", String(scale));
  root.toggleAttribute("data-large-text", scale >= LARGE_TEXT_SCALE);
}

/**
 * Measures the text scale now and again whenever it may have changed — the window resized (a web view's text zoom
 * changes with a relayout) or the app comes back to the foreground (the owner changed the system's text size in the
 * settings meanwhile) — and applies it ({@link applyTextScale}). Returns the function that stops following it.
 */
export function followTextScale(doc: Document = document): () => void {
  const view = doc.defaultView;
  const update = () => applyTextScale(measureTextScale(doc), doc);
  const onVisible = () => {
    if (doc.visibilityState === "visible") update();
  };
  update();
  view?.addEventListener("resize", update);
  doc.addEventListener("visibilitychange", onVisible);
  return () => {
    view?.removeEventListener("resize", update);
    doc.removeEventListener("visibilitychange", onVisible);
  };
}
