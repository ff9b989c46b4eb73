import { useEffect, useState } from "react";

/**
 * Hands the CountrySelect result back to the screen that opened it, and keeps that screen's
 * form across the round trip (the router unmounts it while CountrySelect shows). Both live in memory only, for this
 * page session: passwords never reach storage or the URL.
 *
 * Flow: the caller saves its draft with {@link saveDraft} and navigates to /CountrySelect with
 * `{requestPageId, selected}`; CountrySelect calls {@link setCountryChoice} and goes back; the caller's
 * {@link useReturnedState} restores the draft and applies the choice once.
 */

const choices = new Map<string, string>();
const drafts = new Map<string, unknown>();

/** Records the country (ISO alpha-2) chosen for the page `requestPageId`. */
export function setCountryChoice(requestPageId: string, iso2: string): void {
  choices.set(requestPageId, iso2);
}

/** The country chosen for `requestPageId` and not yet taken, or null; `take` removes it. */
export function peekCountryChoice(requestPageId: string, take = false): string | null {
  const value = choices.get(requestPageId) ?? null;
  if (take) choices.delete(requestPageId);
  return value;
}

/** Keeps a screen's form while it is away at CountrySelect. */
export function saveDraft<T>(requestPageId: string, draft: T): void {
  drafts.set(requestPageId, draft);
}

/** The saved draft of a screen, or null; `take` removes it. */
export function peekDraft<T>(requestPageId: string, take = false): T | null {
  const value = (drafts.get(requestPageId) as T | undefined) ?? null;
  if (take) drafts.delete(requestPageId);
  return value;
}

/**
 * A screen's form state that survives a trip to CountrySelect: starts from the saved draft (else `initial`), with the
 * returned country applied through `applyCountry`. The draft and the choice are consumed after the first render.
 */
export function useReturnedState<T>(
  requestPageId: string,
  initial: () => T,
  applyCountry: (draft: T, iso2: string) => T,
) {
  const state = useState<T>(() => {
    const base = peekDraft<T>(requestPageId) ?? initial();
    const iso2 = peekCountryChoice(requestPageId);
    return iso2 ? applyCountry(base, iso2) : base;
  });
  useEffect(() => {
    peekDraft(requestPageId, true);
    peekCountryChoice(requestPageId, true);
  }, [requestPageId]);
  return state;
}
