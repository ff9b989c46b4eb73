import { BindType, type Language, type TIdentityTicket, type TProfile } from "@aquapilot/contract";
import type { FastifyRequest } from "fastify";
import type { Selectable } from "kysely";
import { hashPassword, verifyPassword } from "../../auth/passwords.ts";
import { endSessions } from "../../auth/sessions.ts";
import type { TicketService } from "../../auth/tickets.ts";
import type { Bus } from "../../bus.ts";
import type { CoreServices } from "../../core-services.ts";
import { isUniqueViolation } from "../../db/errors.ts";
import type { Db } from "../../db/index.ts";
import type { UsersTable } from "../../db/schema.ts";
import { AppError, ErrorCode } from "../../http/errors.ts";
import { translate } from "../../http/messages.ts";
import { normaliseCountryCode, normaliseEmail, phoneTarget, sendVerificationCode } from "../account/index.ts";
import { requireOwnUploads } from "../files/index.ts";

type UserRow = Selectable<UsersTable>;

async function loadUser(db: Db, userId: string): Promise<UserRow> {
  const u = await db
    .selectFrom("users")
    .selectAll()
    .where("id", "=", userId)
    .where("is_deleted", "=", 0)
    .executeTakeFirst();
  if (!u) throw new AppError(ErrorCode.NotFound, "user.notFound");
  return u;
}

function toProfile(u: UserRow): TProfile {
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

/**
 * The caller's profile (spec §7 GET /api/basic-data/app/profile/).
 * @throws AppError NotFound when the user no longer exists or is deleted.
 */
export async function getProfile(db: Db, userId: string): Promise<TProfile> {
  return toProfile(await loadUser(db, userId));
}

function wrongPassword(lang: Language, member: string) {
  return new AppError(ErrorCode.Validation, "profile.wrongPassword", {}, [
    { message: translate(lang, "profile.wrongPassword"), members: [member] },
  ]);
}

/**
 * Updates user name, display name and avatar (spec §7 POST /api/basic-data/app/profile/ B; §2 PersonalInfo,
 * UpdateUserName). Absent fields stay; `null` clears name or avatar. A user name must not be another live user's
 * user name, e-mail or phone number (all three sign in). Publishes bus `user.changed` after a change, so cached token
 * checks carrying the old names are dropped.
 * The avatar must be the caller's own upload (modules/files `requireOwnUploads`).
 * @throws AppError Conflict (409, profile.userNameTaken); Validation (files.notOwned) for an avatar the caller did not
 *   upload; NotFound.
 */
export async function updateProfile(
  deps: { db: Db; bus: Pick<Bus, "publish"> },
  userId: string,
  input: { userName?: string; name?: string | null; avatar?: string | null },
): Promise<TProfile> {
  const changes: { user_name?: string; name?: string | null; avatar?: string | null } = {};
  if (input.userName !== undefined) changes.user_name = input.userName.trim();
  if (input.name !== undefined) changes.name = input.name?.trim() || null;
  if (input.avatar !== undefined) changes.avatar = input.avatar;
  const { db } = deps;
  try {
    await db.transaction().execute(async (trx) => {
      await loadUser(trx, userId);
      if (changes.avatar) await requireOwnUploads(trx, userId, [changes.avatar]);
      if (changes.user_name !== undefined) {
        const name = changes.user_name;
        const clash = await trx
          .selectFrom("users")
          .select("id")
          .where("id", "!=", userId)
          .where((eb) =>
            eb.or([eb("user_name", "=", name), eb("email", "=", name.toLowerCase()), eb("phone_number", "=", name)]),
          )
          .executeTakeFirst();
        if (clash) throw new AppError(ErrorCode.Conflict, "profile.userNameTaken");
      }
      if (Object.keys(changes).length) await trx.updateTable("users").set(changes).where("id", "=", userId).execute();
    });
  } catch (err) {
    if (isUniqueViolation(err)) throw new AppError(ErrorCode.Conflict, "profile.userNameTaken");
    throw err;
  }
  if (Object.keys(changes).length) deps.bus.publish({ type: "user.changed", userId });
  return getProfile(db, userId);
}

/**
 * Changes the password (spec §5 "Change password: old password required; new at least 6 characters"; the length
 * is checked by the contract). In one transaction: new argon2id hash, new security stamp, every refresh token
 * revoked; then bus `user.revoked` closes the user's hub connections. Every session ends, the caller's too: the app
 * signs in again with the new password.
 * @throws AppError Validation (400, profile.wrongPassword, member currentPassword) when the old password is wrong.
 */
export async function changePassword(
  ctx: CoreServices,
  userId: string,
  input: { currentPassword: string; newPassword: string },
  lang: Language,
): Promise<void> {
  const user = await loadUser(ctx.db, userId);
  if (!(await verifyPassword(user.password_hash, input.currentPassword))) throw wrongPassword(lang, "currentPassword");
  const passwordHash = await hashPassword(input.newPassword);
  await ctx.db.transaction().execute(async (trx) => {
    await trx.updateTable("users").set({ password_hash: passwordHash }).where("id", "=", userId).execute();
    await endSessions(trx, userId, ctx.now(), "password-changed");
  });
  ctx.bus.publish({ type: "user.revoked", userId });
}

/**
 * Stores the user's language (spec §7 change_language-type; §1 codes). E-mails and SMS to the user are then written
 * in it (notify: `Notifier.languageFor`). Publishes bus `user.changed` (`request.user.languageType`).
 * @throws AppError NotFound when the user no longer exists or is deleted.
 */
export async function changeLanguage(
  deps: { db: Db; bus: Pick<Bus, "publish"> },
  userId: string,
  languageType: Language,
): Promise<void> {
  await loadUser(deps.db, userId);
  await deps.db.updateTable("users").set({ language_type: languageType }).where("id", "=", userId).execute();
  deps.bus.publish({ type: "user.changed", userId });
}

/**
 * Password verification before a phone or e-mail change (spec §5; §7 update-phone-or-email-verification): answers
 * a signed ticket valid 10 minutes, bound to this user and to the current password, e-mail and phone.
 * @throws AppError Validation (profile.wrongPassword, member password).
 */
export async function issueIdentityTicket(
  ctx: CoreServices,
  tickets: TicketService,
  userId: string,
  password: string,
  lang: Language,
): Promise<TIdentityTicket> {
  const user = await loadUser(ctx.db, userId);
  if (!(await verifyPassword(user.password_hash, password))) throw wrongPassword(lang, "password");
  return tickets.issue("change-identity", user);
}

/**
 * Checks a change-identity ticket for `userId`: valid signature, purpose and expiry, issued to this very user, and
 * the user's password, e-mail and phone unchanged since. Answers the user's row.
 * @throws AppError InvalidCode (400, profile.ticketInvalid) otherwise — the same answer for every reason.
 */
async function requireTicket(ctx: CoreServices, tickets: TicketService, userId: string, ticket: string | undefined) {
  const claims = ticket ? await tickets.verify("change-identity", ticket) : null;
  if (!claims || claims.userId !== userId) throw new AppError(ErrorCode.InvalidCode, "profile.ticketInvalid");
  const user = await loadUser(ctx.db, userId);
  if (!tickets.matches(claims.state, user)) throw new AppError(ErrorCode.InvalidCode, "profile.ticketInvalid");
  return user;
}

/** A new identity: a normalised e-mail, or a phone number with its "+NN" country code. */
type Identity = { kind: "email"; email: string } | { kind: "phone"; phoneNumber: string; countryCode: string };

function recipientOf(id: Identity): string {
  return id.kind === "email" ? id.email : phoneTarget(id.phoneNumber, id.countryCode);
}

/** The code target of a change-identity code: the new identity AND the user, so a code serves only its requester. */
function identityCodeTarget(userId: string, id: Identity): string {
  return `${recipientOf(id)}#${userId}`;
}

/**
 * Refuses an identity that is the user's own (400 profile.sameIdentity) or belongs to another account, deleted
 * accounts excepted since they are anonymised (409 profile.identityTaken). Runs inside the caller's transaction.
 */
async function requireFreeIdentity(db: Db, user: UserRow, id: Identity): Promise<void> {
  if (id.kind === "email" ? user.email === id.email : user.phone_number === id.phoneNumber) {
    throw new AppError(ErrorCode.Validation, "profile.sameIdentity");
  }
  const other = await db
    .selectFrom("users")
    .select("id")
    .where("id", "!=", user.id)
    .where(id.kind === "email" ? "email" : "phone_number", "=", id.kind === "email" ? id.email : id.phoneNumber)
    .executeTakeFirst();
  if (other) throw new AppError(ErrorCode.Conflict, "profile.identityTaken");
}

/**
 * Hides most of an e-mail or phone number for display: "ab***@example.com"; a phone target "+<countryCode><digits>"
 * keeps the country code and the last 4 digits ("+86*******8000").
 */
export function maskRecipient(recipient: string, countryCode = ""): string {
  const at = recipient.indexOf("@");
  if (at >= 0) return `${recipient.slice(0, Math.min(2, at))}***${recipient.slice(at)}`;
  const cc = countryCode && recipient.startsWith(countryCode) ? countryCode : "";
  const digits = recipient.slice(cc.length);
  return `${cc}${"*".repeat(Math.max(0, digits.length - 4))}${digits.slice(-4)}`;
}

/** Query of send-useridentity-verification (spec §7 Q). */
export interface SendIdentityCodeInput {
  purpose: "change-identity" | "delete-account";
  ticket?: string;
  email?: string;
  phoneNumber?: string;
  countryCode?: string;
  bindType?: 1 | 2;
}

/**
 * Sends a 6-digit code (spec §7 send-useridentity-verification), in the user's stored language, and answers where
 * it went, masked:
 * - purpose "change-identity": with a valid ticket, to the NEW e-mail, or the new phone number with country code;
 * - purpose "delete-account": to the account's own e-mail (bindType 1, the default when there is one) or phone
 *   (bindType 2) — spec §5 "Delete account: security code verification first".
 * `request` is the HTTP request (its client address counts against the code-sending limits).
 * @throws AppError InvalidCode (profile.ticketInvalid); Validation (profile.identityRequired, profile.sameIdentity,
 *   profile.noIdentity); Conflict (409 profile.identityTaken); TooManyRequests over a limit or within 60 s;
 *   Internal on delivery.
 */
export async function sendIdentityCode(
  ctx: CoreServices,
  tickets: TicketService,
  userId: string,
  input: SendIdentityCodeInput,
  lang: Language,
  request: FastifyRequest,
): Promise<{ sentTo: string }> {
  if (input.purpose === "delete-account") {
    const user = await loadUser(ctx.db, userId);
    const useEmail = input.bindType ? input.bindType === BindType.Email : user.email !== null;
    const recipient = useEmail
      ? user.email
      : user.phone_number && user.country_code
        ? phoneTarget(user.phone_number, user.country_code)
        : null;
    if (!recipient) throw new AppError(ErrorCode.Validation, "profile.noIdentity");
    await sendVerificationCode(ctx, {
      purpose: "delete-account",
      channel: useEmail ? "email" : "sms",
      recipient,
      userId,
      lang,
      request,
    });
    return { sentTo: maskRecipient(recipient, user.country_code ?? "") };
  }

  const user = await requireTicket(ctx, tickets, userId, input.ticket);
  const id = identityOf(input, lang);
  await requireFreeIdentity(ctx.db, user, id);
  const recipient = recipientOf(id);
  await sendVerificationCode(ctx, {
    purpose: "change-identity",
    channel: id.kind === "email" ? "email" : "sms",
    recipient,
    codeTarget: identityCodeTarget(userId, id),
    userId,
    lang,
    request,
  });
  return { sentTo: maskRecipient(recipient, id.kind === "phone" ? id.countryCode : "") };
}

function identityOf(input: { email?: string; phoneNumber?: string; countryCode?: string }, lang: Language): Identity {
  const hasEmail = input.email !== undefined;
  const hasPhone = input.phoneNumber !== undefined;
  if (hasEmail === hasPhone || (hasPhone && !input.countryCode)) {
    throw new AppError(ErrorCode.Validation, "profile.identityRequired", {}, [
      {
        message: translate(lang, "profile.identityRequired"),
        members: hasPhone ? ["countryCode"] : ["email", "phoneNumber"],
      },
    ]);
  }
  if (hasEmail) return { kind: "email", email: normaliseEmail(input.email!) };
  return {
    kind: "phone",
    phoneNumber: input.phoneNumber!.trim().replace(/^\+/, ""),
    countryCode: normaliseCountryCode(input.countryCode!),
  };
}

/**
 * Changes the e-mail or phone number (spec §7 update-email / update-phone): a valid ticket, then the code sent to
 * the new identity. In one transaction the code is spent, the identity checked free again and stored. The ticket
 * is spent with it (it is bound to the old identity). Answers the new profile. Publishes bus `user.changed`
 * (`request.user` carries the e-mail and phone).
 * @throws AppError InvalidCode (ticket or code), Validation (profile.sameIdentity), Conflict (409
 *   profile.identityTaken, also when another account took it meanwhile).
 */
export async function updateIdentity(
  ctx: CoreServices,
  tickets: TicketService,
  userId: string,
  input: { ticket: string; code: string; email?: string; phoneNumber?: string; countryCode?: string },
  lang: Language,
): Promise<TProfile> {
  const user = await requireTicket(ctx, tickets, userId, input.ticket);
  const id = identityOf(input, lang);
  await requireFreeIdentity(ctx.db, user, id);
  const codeId = await ctx.codes.check("change-identity", identityCodeTarget(userId, id), input.code);
  try {
    await ctx.db.transaction().execute(async (trx) => {
      await ctx.codes.consume(trx, codeId);
      await requireFreeIdentity(trx, user, id);
      await trx
        .updateTable("users")
        .set(id.kind === "email" ? { email: id.email } : { phone_number: id.phoneNumber, country_code: id.countryCode })
        .where("id", "=", userId)
        .execute();
    });
  } catch (err) {
    if (isUniqueViolation(err)) throw new AppError(ErrorCode.Conflict, "profile.identityTaken");
    throw err;
  }
  ctx.bus.publish({ type: "user.changed", userId });
  return getProfile(ctx.db, userId);
}
