import { getItem, getUserFamily, setItem, setUserFamily } from "../../shared/storage/index.ts";

/** The signed-in user's name (the key of spec §3 userFamilyCache), "" when signed out. */
export function currentUserName(): string {
  return getItem("loginInfo")?.userName ?? "";
}

/** The id of the family the home tab shows for the signed-in user (spec §3 userFamilyCache), or null. */
export function homeFamilyId(): string | null {
  return getUserFamily(currentUserName());
}

/**
 * Makes a family the one the home tab shows (spec §3 userFamilyCache per user name, and the "family" key), e.g.
 * after joining or creating one, or the "show on the home tab" action.
 */
export function setHomeFamily(family: { id: string; name: string }): void {
  setUserFamily(currentUserName(), family.id);
  setItem("family", { id: family.id, name: family.name });
}

/**
 * The family marked as the home family in a list: the cached one when it is listed, else the first (the same rule
 * the home tab applies), or null for an empty list.
 */
export function markedHomeFamily<T extends { id: string }>(families: T[], cachedId: string | null): T | null {
  return families.find((f) => f.id === cachedId) ?? families[0] ?? null;
}
