/**
 * Pure list moves of the DeviceSort screen (spec §2 /DeviceSort "edit order"): the drag handle and the up/down
 * buttons both end in one of these; the saved order is the ids in list order.
 */

/** Returns a copy of `list` with the item at `from` moved to `to` (both clamped into the list). */
export function moveItem<T>(list: readonly T[], from: number, to: number): T[] {
  const next = [...list];
  if (next.length === 0 || from < 0 || from >= next.length) return next;
  const target = Math.max(0, Math.min(next.length - 1, to));
  const [item] = next.splice(from, 1);
  next.splice(target, 0, item);
  return next;
}

/** Moves the item with `id` one place up (-1) or down (+1); unchanged at the ends or for an unknown id. */
export function moveById<T extends { id: string }>(list: readonly T[], id: string, delta: -1 | 1): T[] {
  const from = list.findIndex((x) => x.id === id);
  if (from < 0) return [...list];
  return moveItem(list, from, from + delta);
}

/**
 * The index a dragged row lands on: start index plus the rows passed, from the pointer's vertical travel `dy` (px)
 * and the row height (px); clamped into the list.
 */
export function dropIndex(start: number, dy: number, rowHeight: number, count: number): number {
  if (rowHeight <= 0 || count <= 0) return Math.max(0, Math.min(count - 1, start));
  return Math.max(0, Math.min(count - 1, start + Math.round(dy / rowHeight)));
}

/** Whether two id orders differ (the Save button is active only then). */
export function orderChanged(a: readonly string[], b: readonly string[]): boolean {
  return a.length !== b.length || a.some((id, i) => id !== b[i]);
}
