/**
 * The display name of a user (`users.name`, profile `name`): the name household members see in member lists,
 * invitations and household messages. It is not the user name (`userName`), which is unique and signs in; two users
 * may share a display name. No zod here, so the web app's Register screen reads these through
 * `@aquapilot/contract/wire` without loading a schema.
 */

/**
 * Longest display name, chosen at sign-up or changed on the profile, in UTF-16 code units after trimming (as zod and
 * a native `maxLength` count): the limit of the app's other name fields (household name `ZFamilyName`, device name `ZDeviceName`).
 */
export const DISPLAY_NAME_MAX = 32;

/** Separators between the words of an e-mail's local part ("first.last", "first_last", "first-last"). */
const WORD_SEPARATORS = /[._\-\s]+/u;
/** Control characters, which no single-line text field accepts (contract `ZText`). */
const CONTROL = /\p{Cc}/gu;

/**
 * `text` cut to at most `max` UTF-16 code units (as zod and a native `maxLength` count) without splitting a character
 * made of two code units: a lone surrogate is refused by `ZText`. Used where a field's limit cuts typed or pasted
 * text (the web app's text fields) and for the suggested display name. Pure; never throws.
 */
export function clampToCodeUnits(text: string, max: number): string {
  let out = "";
  for (const ch of text) {
    if (out.length + ch.length > max) break;
    out += ch;
  }
  return out;
}

/**
 * The display name suggested for an e-mail address (Register, spec §2 /Register; §5 "Other sign-up field rules: not
 * shown"): its local part (before the last "@"; the whole text while no "@" is typed yet) without a "+tag", split into
 * words at ".", "_", "-" and white space, each word's first letter raised, joined by single spaces, and cut to
 * {@link DISPLAY_NAME_MAX} code units. "first.last@example.com" → "First Last", "ann+shop@x.io" → "Ann". Answers ""
 * when nothing of the local part is left. Pure; never throws.
 */
export function nameFromEmail(email: string): string {
  const at = email.lastIndexOf("@");
  const local = (at >= 0 ? email.slice(0, at) : email).split("+")[0].replace(CONTROL, " ");
  const words = local
    .split(WORD_SEPARATORS)
    .filter((w) => w.length > 0)
    .map((w) => {
      const first = String.fromCodePoint(w.codePointAt(0) as number);
      return first.toUpperCase() + w.slice(first.length);
    });
  return clampToCodeUnits(words.join(" "), DISPLAY_NAME_MAX).trimEnd();
}
