import { type ReactNode, useLayoutEffect, useRef, useState } from "react";

/**
 * An image, or `fallback` when `src` is empty or fails to load; a new `src` is tried again. The failure is seen by a
 * listener a layout effect attaches (in the commit, before any network task can report the failure), so the `<img>`
 * itself has no handler: it stays a plain, non-interactive image for assistive technology. `alt` as for `<img>`
 * (empty for a decorative picture); `testId` is the image's `data-testid`.
 */
export function FallbackImage(props: { src: string | null; alt: string; fallback: ReactNode; testId?: string }) {
  const { src } = props;
  const [failed, setFailed] = useState<string | null>(null);
  const img = useRef<HTMLImageElement>(null);
  useLayoutEffect(() => {
    const element = img.current;
    if (!element || !src) return;
    const fail = () => setFailed(src);
    element.addEventListener("error", fail);
    return () => element.removeEventListener("error", fail);
  }, [src]);
  if (!src || failed === src) return <>{props.fallback}</>;
  return <img ref={img} src={src} alt={props.alt} data-testid={props.testId} />;
}
