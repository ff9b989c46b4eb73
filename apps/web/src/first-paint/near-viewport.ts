import { useEffect, useState } from "react";

/**
 * Whether an element has come into the viewport (heavy parts below the first screen, such as the Device
 * screen's charts, draw when the owner scrolls to them, not during the screen's start). Give `ref` to the element (a
 * callback ref: the element may appear later, e.g. with data). Latches: once seen it stays true, so scrolling away
 * keeps what was drawn. `rootMargin` widens the viewport (CSS margin syntax, e.g. "0px 0px 100px 0px" counts 100 px
 * below the screen as in view). True at once where IntersectionObserver does not exist (nothing could tell us).
 */
export function useNearViewport(rootMargin = "0px"): { ref: (element: Element | null) => void; near: boolean } {
  const [element, setElement] = useState<Element | null>(null);
  const [near, setNear] = useState(() => typeof IntersectionObserver === "undefined");
  useEffect(() => {
    if (near || !element) return;
    const observer = new IntersectionObserver(
      (entries) => {
        if (entries.some((entry) => entry.isIntersecting)) {
          observer.disconnect();
          setNear(true);
        }
      },
      { rootMargin },
    );
    observer.observe(element);
    return () => observer.disconnect();
  }, [element, near, rootMargin]);
  return { ref: setElement, near };
}
