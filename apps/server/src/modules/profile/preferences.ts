import {
  DEFAULT_UNIT_PREFERENCES,
  endpoints,
  HARDNESS_UNITS,
  type HardnessUnit,
  type Language,
  type TUnitPreferences,
  type TValidationError,
  VOLUME_UNITS,
  type VolumeUnit,
} from "@aquapilot/contract";
import type { FastifyInstance } from "fastify";
import type { CoreServices } from "../../core-services.ts";
import type { Db } from "../../db/index.ts";
import { AppError, ErrorCode } from "../../http/errors.ts";
import { translate } from "../../http/messages.ts";
import { registerEndpoint } from "../../http/route.ts";

/**
 * The caller's display units: volume "L" | "gal", hardness "mgL" | "dH" | "fH" | "gpg"; the
 * contract's DEFAULT_UNIT_PREFERENCES until the user chooses. Stored values the contract no longer knows fall back to
 * the default one by one.
 */
export async function readUnitPreferences(db: Db, userId: string): Promise<TUnitPreferences> {
  const row = await db
    .selectFrom("user_preferences")
    .select(["volume_unit", "hardness_unit"])
    .where("user_id", "=", userId)
    .executeTakeFirst();
  return {
    volumeUnit: (VOLUME_UNITS as readonly string[]).includes(row?.volume_unit ?? "")
      ? (row?.volume_unit as VolumeUnit)
      : DEFAULT_UNIT_PREFERENCES.volumeUnit,
    hardnessUnit: (HARDNESS_UNITS as readonly string[]).includes(row?.hardness_unit ?? "")
      ? (row?.hardness_unit as HardnessUnit)
      : DEFAULT_UNIT_PREFERENCES.hardnessUnit,
  };
}

/**
 * Sets the caller's display units: each given field must be one of the contract's units (absent fields keep their
 * value); one upsert per user, the same on SQLite and PostgreSQL. Answers all the units as stored.
 * @throws AppError Validation (400) naming every wrong field (`validationErrors` members volumeUnit / hardnessUnit)
 *   with the choices in `lang`; nothing is stored then.
 */
export async function setUnitPreferences(
  db: Db,
  userId: string,
  input: { volumeUnit?: string; hardnessUnit?: string },
  lang: Language,
  now: Date,
): Promise<TUnitPreferences> {
  const errors: TValidationError[] = [];
  if (input.volumeUnit !== undefined && !(VOLUME_UNITS as readonly string[]).includes(input.volumeUnit)) {
    errors.push({ message: translate(lang, "profile.volumeUnit"), members: ["volumeUnit"] });
  }
  if (input.hardnessUnit !== undefined && !(HARDNESS_UNITS as readonly string[]).includes(input.hardnessUnit)) {
    errors.push({ message: translate(lang, "profile.hardnessUnit"), members: ["hardnessUnit"] });
  }
  if (errors.length > 0) {
    const first = errors[0].members?.[0] === "volumeUnit" ? "profile.volumeUnit" : "profile.hardnessUnit";
    throw new AppError(ErrorCode.Validation, first, {}, errors);
  }
  const current = await readUnitPreferences(db, userId);
  const next: TUnitPreferences = {
    volumeUnit: (input.volumeUnit as VolumeUnit | undefined) ?? current.volumeUnit,
    hardnessUnit: (input.hardnessUnit as HardnessUnit | undefined) ?? current.hardnessUnit,
  };
  const values = { volume_unit: next.volumeUnit, hardness_unit: next.hardnessUnit, updated_at: now.toISOString() };
  await db
    .insertInto("user_preferences")
    .values({ user_id: userId, ...values })
    .onConflict((oc) => oc.column("user_id").doUpdateSet(values))
    .execute();
  return next;
}

/**
 * Routes of the unit preference (extension of spec §7 appuser_setting): GET and POST
 * /api/RunLuckyIot/appuser_setting/app/setting/units. Both act on the signed-in caller only (no id is taken from
 * the request), so no other user's preference can be read or changed.
 */
export function preferenceRoutes(app: FastifyInstance, ctx: CoreServices): void {
  registerEndpoint(app, endpoints.getUnitPreferences, async ({ user }) => readUnitPreferences(ctx.db, user.id));
  registerEndpoint(app, endpoints.setUnitPreferences, async ({ user, body, lang }) =>
    setUnitPreferences(ctx.db, user.id, body, lang, ctx.now()),
  );
}
