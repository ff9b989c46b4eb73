/**
 * Which family the home tab shows (spec §3 userFamilyCache: the selected home family per user name).
 * The selected one while the user still belongs to it; otherwise — it was left, deleted, or the user was removed —
 * the first family of the list; null when the user has none (the home tab then goes to NoFamily).
 */
export function selectHomeFamily<T extends { id: string }>(
  families: readonly T[],
  selectedId: string | null,
): T | null {
  return families.find((f) => f.id === selectedId) ?? families[0] ?? null;
}

/**
 * Whether the home tab should go to NoFamily: only once the list has loaded (a pending or failed load says
 * nothing), is not being refetched (a cached empty list from before a household was created or joined says nothing
 * either) and is empty.
 */
export function shouldShowNoFamily(state: {
  isSuccess: boolean;
  isFetching: boolean;
  families: readonly unknown[] | undefined;
}): boolean {
  return state.isSuccess && !state.isFetching && (state.families?.length ?? 0) === 0;
}
