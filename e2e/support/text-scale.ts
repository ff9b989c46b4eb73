import type { Page } from "playwright-core";

/**
 * Text enlarged as a phone's system font size does it (WCAG 1.4.4 "Resize text"): the page's text, not its layout,
 * grows by `percent` through CSS `text-size-adjust`, the text-only zoom a mobile browser engine applies (Chromium with
 * a mobile viewport, WebKit) and the one the app sets from the platform's preferred text size. Applies to documents
 * loaded after the call (an init script), before the app's first screen draws.
 */
export async function enlargeText(page: Page, percent: number): Promise<void> {
  await page.addInitScript((value) => {
    const apply = () => {
      document.documentElement.style.setProperty("text-size-adjust", value);
      document.documentElement.style.setProperty("-webkit-text-size-adjust", value);
    };
    if (document.documentElement) apply();
    else document.addEventListener("DOMContentLoaded", apply);
  }, `${percent}%`);
}

/**
 * What enlarged text broke on the screen shown, as one line per problem ("cut", "clipped", "off screen", "overlaps",
 * "sideways"): text outside the viewport's width, the page scrolling sideways, text cut by an ellipsis or a line clamp,
 * an empty field's placeholder wider than the field, text clipped by an ancestor that hides its overflow, and two
 * texts drawn over each other. Only text a user can meet
 * is judged: not inside an inert or aria-hidden subtree, a visually hidden element, an invisible one or a box of no
 * area. Text in a fixed or sticky bar may lie over content that scrolls beneath it, but not at the page's top (top
 * bar) or end (bottom bar): the page is judged scrolled to both. Empty when the screen holds everything.
 */
export async function textScaleProblems(page: Page): Promise<string[]> {
  const seen = new Set<string>();
  for (const at of ["top", "bottom"] as const) {
    await page.evaluate((end) => {
      const scroller = document.scrollingElement;
      if (scroller) scroller.scrollTop = end === "top" ? 0 : scroller.scrollHeight;
    }, at);
    await page.evaluate(() => new Promise((resolve) => requestAnimationFrame(() => requestAnimationFrame(resolve))));
    for (const problem of await problemsAt(page, at)) seen.add(problem);
  }
  await page.evaluate(() => document.scrollingElement?.scrollTo(0, 0));
  return [...seen];
}

/** {@link textScaleProblems} with the page scrolled to its top or its end (`at`). */
function problemsAt(page: Page, at: "top" | "bottom"): Promise<string[]> {
  return page.evaluate((at) => {
    const out: string[] = [];
    const vw = document.documentElement.clientWidth;
    const vh = document.documentElement.clientHeight;
    const scroller = document.scrollingElement;
    if (scroller && scroller.scrollWidth > vw + 1) out.push(`sideways: the page is ${scroller.scrollWidth} px wide`);
    const label = (el: Element, text: string) => {
      const id = el.closest("[data-testid]")?.getAttribute("data-testid");
      return `"${text.trim().slice(0, 40)}" (${el.tagName.toLowerCase()}.${String(el.className).split(" ")[0]}${id ? ` in ${id}` : ""})`;
    };
    const unseen = (el: Element): boolean => {
      if (el.closest("[inert], [aria-hidden='true'], .visually-hidden, script, style, template")) return true;
      for (let a: Element | null = el; a; a = a.parentElement) {
        const cs = getComputedStyle(a);
        if (cs.display === "none" || cs.visibility === "hidden" || Number(cs.opacity) === 0) return true;
        // Read by screen readers only (clipped to nothing, the visually-hidden pattern).
        if (cs.position === "absolute" && cs.clip === "rect(0px, 0px, 0px, 0px)") return true;
      }
      return false;
    };
    interface Box {
      el: Element;
      text: string;
      rects: DOMRect[];
      /** Which bar holds the text (a fixed or stuck sticky ancestor, in the screen's upper or lower half); null: content. */
      bar: "top" | "bottom" | null;
    }
    const boxes: Box[] = [];
    const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
    for (let node = walker.nextNode(); node; node = walker.nextNode()) {
      const text = node.textContent ?? "";
      const el = node.parentElement;
      if (!el || text.trim() === "" || unseen(el)) continue;
      const range = document.createRange();
      range.selectNodeContents(node);
      const rects = [...range.getClientRects()].filter((r) => r.width > 0.5 && r.height > 0.5);
      if (rects.length === 0) continue;
      // In a bar: a fixed ancestor, or a sticky one stuck at the screen's top or bottom edge (a sticky list heading in
      // its place is content).
      let pinned = false;
      for (let a: Element | null = el; a; a = a.parentElement) {
        const position = getComputedStyle(a).position;
        if (position === "fixed") pinned = true;
        if (position === "sticky") {
          const r = a.getBoundingClientRect();
          if (Math.abs(r.top) <= 1 || Math.abs(r.bottom - vh) <= 1) pinned = true;
        }
      }
      let hidden = false;
      const problems: string[] = [];
      if (pinned && rects.some((r) => r.bottom > vh + 1)) problems.push(`below the screen: ${label(el, text)}`);
      // Off the screen's sides, unless a row that scrolls sideways holds it (a strip of tabs).
      let strip = false;
      for (let a = el.parentElement; a; a = a.parentElement) {
        const x = getComputedStyle(a).overflowX;
        if ((x === "auto" || x === "scroll") && a.scrollWidth > a.clientWidth) strip = true;
      }
      if (!strip && rects.some((r) => r.right > vw + 1 || r.left < -1)) problems.push(`off screen: ${label(el, text)}`);

      // Text a scrolling ancestor can bring into view along an axis is not lost along it.
      let scrollsX = false;
      let scrollsY = false;
      for (let a: Element | null = el; a && a !== document.documentElement; a = a.parentElement) {
        const cs = getComputedStyle(a);
        const clipX = !scrollsX && (cs.overflowX === "hidden" || cs.overflowX === "clip");
        const clipY = !scrollsY && (cs.overflowY === "hidden" || cs.overflowY === "clip");
        if (cs.overflowX === "auto" || cs.overflowX === "scroll") scrollsX = true;
        if (cs.overflowY === "auto" || cs.overflowY === "scroll") scrollsY = true;
        if (cs.textOverflow === "ellipsis" && a.scrollWidth > a.clientWidth + 1) {
          problems.push(`cut: ${label(el, text)} ends in an ellipsis`);
          break;
        }
        if (cs.webkitLineClamp !== "none" && cs.webkitLineClamp !== "" && a.scrollHeight > a.clientHeight + 1) {
          problems.push(`cut: ${label(el, text)} is clamped to ${cs.webkitLineClamp} lines`);
          break;
        }
        if (!clipX && !clipY) continue;
        const box = a.getBoundingClientRect();
        const outside = rects.some(
          (r) =>
            (clipX && (r.right > box.right + 1 || r.left < box.left - 1)) ||
            (clipY && (r.bottom > box.bottom + 1 || r.top < box.top - 1)),
        );
        // A box of no area shows nothing (the pull gesture's head at rest): its text is not there to lose.
        if (box.height < 1 || box.width < 1) {
          hidden = true;
          break;
        }
        if (outside) {
          problems.push(
            `clipped: ${label(el, text)} by ${a.tagName.toLowerCase()}.${String(a.className).split(" ")[0]}`,
          );
          break;
        }
      }
      if (hidden) continue;
      out.push(...problems);
      const middle = (rects[0].top + rects[rects.length - 1].bottom) / 2;
      boxes.push({ el, text, rects, bar: pinned ? (middle < vh / 2 ? "top" : "bottom") : null });
    }
    // A placeholder, the one line an empty field shows, is cut where it is wider than the field's text box.
    const canvas = document.createElement("canvas").getContext("2d");
    for (const input of document.querySelectorAll<HTMLInputElement>("input[placeholder]")) {
      if (!canvas || input.value !== "" || !input.placeholder || unseen(input)) continue;
      const cs = getComputedStyle(input, "::placeholder");
      // Drawn transparent: the app writes it on a line of its own (judged as text like any other).
      if (cs.color === "rgba(0, 0, 0, 0)" || cs.color === "transparent") continue;
      canvas.font = `${cs.fontStyle} ${cs.fontWeight} ${cs.fontSize} ${cs.fontFamily}`;
      const room = input.clientWidth - Number.parseFloat(cs.paddingLeft) - Number.parseFloat(cs.paddingRight);
      if (room > 0 && canvas.measureText(input.placeholder).width > room + 1) {
        out.push(`cut: placeholder ${label(input, input.placeholder)}`);
      }
    }
    const overlap = (a: DOMRect, b: DOMRect) =>
      Math.min(a.right, b.right) - Math.max(a.left, b.left) > 2 &&
      Math.min(a.bottom, b.bottom) - Math.max(a.top, b.top) > 2;
    for (let i = 0; i < boxes.length; i++) {
      for (let j = i + 1; j < boxes.length; j++) {
        const a = boxes[i];
        const b = boxes[j];
        if (a.el === b.el) continue;
        // Content scrolls beneath a bar: it must clear the top bar at the top of the page and the bottom bar at its end.
        const bar = a.bar ?? b.bar;
        if ((a.bar === null) !== (b.bar === null) && bar !== at) continue;
        if (a.rects.some((ra) => b.rects.some((rb) => overlap(ra, rb)))) {
          out.push(`overlaps: ${label(a.el, a.text)} and ${label(b.el, b.text)}`);
        }
      }
    }
    return out;
  }, at);
}
