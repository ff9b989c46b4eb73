import { reduceMotion, restoreMotion } from "antd-mobile";
import { REDUCED_MOTION_QUERY } from "./motion.ts";

/**
 * Keeps antd-mobile's animations (popups, dialogs, toasts, swipers: react-spring, which CSS cannot reach) off while the
 * system asks for reduced motion, following the setting as it changes. The app's own CSS animations follow the same
 * query in styles.css. `media` is the query's list (`matchMedia(REDUCED_MOTION_QUERY)` unless given). Returns the
 * function that stops following it.
 */
export function followReducedMotion(media: MediaQueryList = matchMedia(REDUCED_MOTION_QUERY)): () => void {
  const apply = () => (media.matches ? reduceMotion() : restoreMotion());
  apply();
  media.addEventListener("change", apply);
  return () => media.removeEventListener("change", apply);
}
