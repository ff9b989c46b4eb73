import type { TProfile } from "@aquapilot/contract";
import type { Db } from "../../db/index.js";
import { AppError, ErrorCode } from "../../http/errors.js";

/**
 * The caller's profile (spec §7 GET /api/basic-data/app/profile/).
 * @throws AppError NotFound when the user no longer exists or is deleted.
 */
export async function getProfile(db: Db, userId: string): Promise<TProfile> {
  const u = await db
    .selectFrom("users")
    .selectAll()
    .where("id", "=", userId)
    .where("is_deleted", "=", 0)
    .executeTakeFirst();
  if (!u) throw new AppError(ErrorCode.NotFound, "user.notFound");
  return {
    id: u.id,
    userName: u.user_name,
    name: u.name,
    email: u.email,
    phoneNumber: u.phone_number,
    countryCode: u.country_code,
    serviceRegion: u.service_region,
    languageType: u.language_type,
    avatar: u.avatar,
    creationTime: u.creation_time,
  };
}
