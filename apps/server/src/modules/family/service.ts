import type { TFamily, TPaged, TPagedQuery } from "@aquapilot/contract";
import type { Db } from "../../db/index.js";
import { paged } from "../../http/paging.js";

/**
 * The families `userId` belongs to, oldest first, paged (spec §7 GET /api/run-lucky/device/app/family/), each with
 * the caller's admin flag and the member and device counts.
 */
export async function listFamilies(db: Db, userId: string, query: Partial<TPagedQuery>): Promise<TPaged<TFamily>> {
  return paged(
    query,
    async () => {
      const row = await db
        .selectFrom("family_members")
        .select((eb) => eb.fn.countAll<number>().as("count"))
        .where("user_id", "=", userId)
        .executeTakeFirstOrThrow();
      return Number(row.count);
    },
    async (offset, limit) => {
      const rows = await db
        .selectFrom("family_members as me")
        .innerJoin("families as f", "f.id", "me.family_id")
        .select((eb) => [
          "f.id",
          "f.name",
          "f.address",
          "f.longitude",
          "f.latitude",
          "f.avatar",
          "f.creation_time",
          "me.is_admin",
          eb
            .selectFrom("family_members as m")
            .select((e) => e.fn.countAll<number>().as("c"))
            .whereRef("m.family_id", "=", "f.id")
            .as("member_count"),
          eb
            .selectFrom("devices as d")
            .select((e) => e.fn.countAll<number>().as("c"))
            .whereRef("d.family_id", "=", "f.id")
            .as("device_count"),
        ])
        .where("me.user_id", "=", userId)
        .orderBy("f.creation_time")
        .orderBy("f.id")
        .offset(offset)
        .limit(limit)
        .execute();
      return rows.map((r) => ({
        id: r.id,
        name: r.name,
        address: r.address,
        longitude: r.longitude,
        latitude: r.latitude,
        avatar: r.avatar,
        isAdmin: r.is_admin === 1,
        memberCount: Number(r.member_count ?? 0),
        deviceCount: Number(r.device_count ?? 0),
        creationTime: r.creation_time,
      }));
    },
  );
}
