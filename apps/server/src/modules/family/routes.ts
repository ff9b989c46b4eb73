import { endpoints, type Language } from "@aquapilot/contract";
import type { FastifyInstance } from "fastify";
import fp from "fastify-plugin";
import { CORE_PLUGIN, type CoreServices, coreServices } from "../../core-services.ts";
import { AppError } from "../../http/errors.ts";
import { translate } from "../../http/messages.ts";
import { registerEndpoint } from "../../http/route.ts";
import { isUploadPath, requireOwnUploads } from "../files/index.ts";
import { createFamily, deleteFamily, getFamily, listFamilies, updateFamily, withdrawFromFamily } from "./service.ts";

/**
 * A household avatar the caller may set: a picture shipped with the app (the contract's ZFamilyAvatar allows only
 * those paths besides uploads) or an image the caller uploaded; never another user's upload.
 * @throws AppError Validation (files.notOwned) for another user's upload.
 */
async function requireAllowedFamilyAvatar(ctx: CoreServices, userId: string, avatar: string): Promise<void> {
  if (isUploadPath(avatar)) await requireOwnUploads(ctx.db, userId, [avatar]);
}

/**
 * Runs `fn` and writes the `validationErrors` of an AppError in `lang`: services put message keys there (they do
 * not know the caller's language); the one error handler sends them as they are.
 */
export async function localisedFieldErrors<T>(lang: Language, fn: () => Promise<T>): Promise<T> {
  try {
    return await fn();
  } catch (err) {
    if (err instanceof AppError && err.validationErrors) {
      throw new AppError(
        err.code,
        err.messageKey,
        err.params,
        err.validationErrors.map((v) => ({ ...v, message: translate(lang, v.message, err.params) })),
      );
    }
    throw err;
  }
}

/** Routes of spec §7 /api/run-lucky/device/app/family (rules in service.ts). */
function familyRoutes(app: FastifyInstance, ctx: CoreServices): void {
  registerEndpoint(app, endpoints.getFamilies, async ({ user, query, lang }) =>
    listFamilies(ctx.db, user.id, query, lang),
  );
  registerEndpoint(app, endpoints.createFamily, async ({ user, body, lang }) => {
    if (body.avatar) await requireAllowedFamilyAvatar(ctx, user.id, body.avatar);
    return localisedFieldErrors(lang, () => createFamily(ctx, user.id, body));
  });
  registerEndpoint(app, endpoints.getFamily, async ({ user, params, lang }) =>
    getFamily(ctx.db, user.id, params.id, lang),
  );
  registerEndpoint(app, endpoints.deleteFamily, async ({ user, params }) => {
    await deleteFamily(ctx, user.id, params.id);
    return null;
  });
  registerEndpoint(app, endpoints.withdrawFromFamily, async ({ user, query }) => {
    await withdrawFromFamily(ctx, user.id, query.familyId);
    return null;
  });
  registerEndpoint(app, endpoints.updateFamilyAvatar, async ({ user, query }) => {
    await requireAllowedFamilyAvatar(ctx, user.id, query.avatar);
    return updateFamily(ctx, user.id, query.familyId, { avatar: query.avatar });
  });
  registerEndpoint(app, endpoints.updateFamilyName, async ({ user, query }) =>
    updateFamily(ctx, user.id, query.familyId, { name: query.name }),
  );
  registerEndpoint(app, endpoints.updateFamilyAddress, async ({ user, query, lang }) => {
    const { familyId, ...address } = query;
    return localisedFieldErrors(lang, () => updateFamily(ctx, user.id, familyId, { address }));
  });
}

/**
 * The family module as the plugin "module-family": {@link familyRoutes} on the core's decorations ({@link
 * coreServices}). Encapsulated: its hooks apply to its own routes only; it decorates nothing another module uses.
 */
export const familyModule = fp(async (app) => familyRoutes(app, coreServices(app)), {
  name: "module-family",
  fastify: "5.x",
  dependencies: [CORE_PLUGIN],
  encapsulate: true,
});
