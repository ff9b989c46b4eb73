/** The media query of an owner who asked the system for less motion (WCAG 2.3.3, Media Queries Level 5). */
export const REDUCED_MOTION_QUERY = "(prefers-reduced-motion: reduce)";

/**
 * Whether the system asks for reduced motion now (`prefers-reduced-motion: reduce`; false where it cannot be asked):
 * a scroll the app starts itself then jumps instead of gliding (WCAG 2.3.3).
 */
export function prefersReducedMotion(): boolean {
  return typeof matchMedia === "function" && matchMedia(REDUCED_MOTION_QUERY).matches;
}
