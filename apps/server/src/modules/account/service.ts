import { randomBytes, randomUUID } from "node:crypto";
import { BindType, type Language, nameFromEmail, type ServiceRegion } from "@aquapilot/contract";
import type { FastifyRequest } from "fastify";
import { z } from "zod";
import { hashPassword } from "../../auth/passwords.ts";
import { CODE_TTL_SECONDS, type CodePurpose, type CodeRequester } from "../../auth/verification-codes.ts";
import type { CoreServices } from "../../core-services.ts";
import { isUniqueViolation } from "../../db/errors.ts";
import type { Db } from "../../db/index.ts";
import { AppError, ErrorCode } from "../../http/errors.ts";
import { translate } from "../../http/messages.ts";

/** Normalised e-mail: trimmed, lower case (the form stored in users.email and used as code target). */
export function normaliseEmail(email: string): string {
  return email.trim().toLowerCase();
}

/** Country code as "+NN" (spec §7 countryCode, with or without "+"). */
export function normaliseCountryCode(countryCode: string): string {
  return `+${countryCode.trim().replace(/^\+/, "")}`;
}

/** Code target of a phone number: "+<country code><digits>". */
export function phoneTarget(phoneNumber: string, countryCode: string): string {
  return `${normaliseCountryCode(countryCode)}${phoneNumber.trim()}`;
}

/** Whether any user holds this e-mail, phone number or user name (a user name also clashes with e-mails and phones). */
async function accountExists(db: Db, where: { email?: string; phoneNumber?: string; userName?: string }) {
  const row = await db
    .selectFrom("users")
    .select("id")
    .where((eb) =>
      eb.or([
        ...(where.email ? [eb("email", "=", where.email)] : []),
        ...(where.phoneNumber ? [eb("phone_number", "=", where.phoneNumber)] : []),
        // A user name may not equal anyone's user name, e-mail or phone: sign-in accepts all three.
        ...(where.userName
          ? [
              eb("user_name", "=", where.userName),
              eb("email", "=", where.userName.toLowerCase()),
              eb("phone_number", "=", where.userName),
            ]
          : []),
      ]),
    )
    .executeTakeFirst();
  return row !== undefined;
}

/** The texts of a code message per purpose (modules/account/messages.ts, http/messages.ts). */
const CODE_TEXTS: Record<CodePurpose, { subjectKey: string; bodyKey: string }> = {
  register: { subjectKey: "notify.code.subject", bodyKey: "notify.code.body" },
  "reset-password": { subjectKey: "notify.reset.subject", bodyKey: "notify.reset.body" },
  "change-identity": { subjectKey: "notify.identity.subject", bodyKey: "notify.identity.body" },
  "delete-account": { subjectKey: "notify.delete.subject", bodyKey: "notify.delete.body" },
};

/**
 * Notices sent INSTEAD of a code when the answer must not tell whether an account exists: the caller gets
 * the same answer either way and only the owner of the address learns it, from the message itself.
 */
const NOTICE_TEXTS = {
  /** A registration code was asked for an address that already has an account. */
  registered: { subjectKey: "notify.registered.subject", bodyKey: "notify.registered.body" },
  /** A password-reset code was asked for an address that has no account. */
  "no-account": { subjectKey: "notify.noAccount.subject", bodyKey: "notify.noAccount.body" },
} as const;

/**
 * Issues a code for `purpose` and `codeTarget` and sends it to `recipient` by e-mail or SMS, in the language of
 * `userId` or of the user owning `recipient`, else `lang` (the caller's Accept-Language). First the message is
 * counted against the code-sending limits of the caller's address, the recipient and the channel
 * (security/limits.ts); without `codeTarget`, `userId` is the account `recipient` belongs to, and an address it
 * signed in from recently skips the recipient's daily ceiling (with `codeTarget`, the recipient is a new address of
 * `userId`'s, not yet its own). With `notice` the code is issued (same 60 s rule) but never sent: the notice goes instead, so
 * the work and the answer are the same whether or not an account exists. A message that cannot be delivered
 * discards its code, so the user may ask again at once.
 * @throws AppError TooManyRequests (429, with Retry-After) over a limit or within 60 s of the last code for the
 *   same purpose and target; Internal (account.sendFailed) when delivery fails.
 */
export async function sendVerificationCode(
  ctx: CoreServices,
  opts: {
    purpose: CodePurpose;
    channel: "email" | "sms";
    recipient: string;
    codeTarget?: string;
    userId?: string | null;
    lang: Language;
    /** The HTTP request asking for it (its client address is limited). */
    request: FastifyRequest;
    notice?: keyof typeof NOTICE_TEXTS;
  },
): Promise<void> {
  await ctx.guards.codeSend(
    opts.request,
    opts.channel,
    opts.recipient,
    opts.codeTarget === undefined ? opts.userId : null,
  );
  const { id, code } = await ctx.codes.issue(opts.purpose, opts.codeTarget ?? opts.recipient);
  try {
    await ctx.notifier.sendLocalized({
      channel: opts.channel,
      recipient: opts.recipient,
      userId: opts.userId,
      fallbackLanguage: opts.lang,
      ...(opts.notice ? NOTICE_TEXTS[opts.notice] : CODE_TEXTS[opts.purpose]),
      params: opts.notice ? {} : { code, minutes: CODE_TTL_SECONDS / 60 },
    });
  } catch (err) {
    await ctx.codes.discard(id);
    throw new AppError(ErrorCode.Internal, "account.sendFailed", {}, null, err);
  }
}

/**
 * Sends a 6-digit registration code by e-mail, in the caller's language (spec §7 send_email_password_code). For an
 * address that already has an account the answer is the same, and the e-mail says "you already have an account;
 * sign in or reset your password" in the account's language instead of carrying a code (no enumeration).
 * @throws AppError TooManyRequests over a limit or within 60 s of the last code; Internal when delivery fails.
 */
export async function sendEmailRegisterCode(
  ctx: CoreServices,
  request: FastifyRequest,
  email: string,
  lang: Language,
): Promise<void> {
  const target = normaliseEmail(email);
  const exists = await accountExists(ctx.db, { email: target });
  await sendVerificationCode(ctx, {
    purpose: "register",
    channel: "email",
    recipient: target,
    lang,
    request,
    notice: exists ? "registered" : undefined,
  });
}

/**
 * Sends a 6-digit registration code by SMS (spec §7 send_phone_password_code); for a number that already has an
 * account the SMS says so instead, as {@link sendEmailRegisterCode}.
 * @throws AppError TooManyRequests over a limit or within 60 s; Internal when delivery fails.
 */
export async function sendPhoneRegisterCode(
  ctx: CoreServices,
  request: FastifyRequest,
  phoneNumber: string,
  countryCode: string,
  lang: Language,
): Promise<void> {
  const exists = await accountExists(ctx.db, { phoneNumber });
  await sendVerificationCode(ctx, {
    purpose: "register",
    channel: "sms",
    recipient: phoneTarget(phoneNumber, countryCode),
    lang,
    request,
    notice: exists ? "registered" : undefined,
  });
}

/** Registration input (spec §7 register query; §5 rules). */
export interface RegisterInput {
  bindType: 1 | 2;
  account: string;
  password: string;
  code: string;
  serviceRegion: ServiceRegion;
  countryCode?: string;
  userName?: string;
  /** The display name (contract ZDisplayName: trimmed, 1–32 characters); absent, {@link defaultDisplayName}. */
  name?: string;
  language: Language;
}

function invalid(field: string, messageKey: "validation.invalidFormat" | "validation.required", lang: Language) {
  return new AppError(ErrorCode.Validation, "error.validation", {}, [
    { message: translate(lang, messageKey, { field }), members: [field] },
  ]);
}

/**
 * A user name for an account registered without one: the e-mail's local part (letters, digits, dot, dash, underscore;
 * at most 20) or "user", then "_" and 6 random hex digits. Never an e-mail or phone number, so signing in by a
 * former e-mail or phone after a change cannot reach this account through its user name.
 */
export function defaultUserName(email: string | null): string {
  const local = (email?.split("@")[0] ?? "").replace(/[^A-Za-z0-9._-]/g, "").slice(0, 20);
  return `${local.length >= 2 ? local : "user"}_${randomBytes(3).toString("hex")}`;
}

/**
 * A display name for an account registered without one (spec §5 Register, "Other sign-up field rules: not shown";
 * an older client sends none): for an e-mail, the name {@link nameFromEmail} suggests
 * ("first.last@…" → "First Last", as the Register screen prefills it); for a phone, or an e-mail whose local part
 * leaves nothing, "User" and the phone number's last 4 digits in `language` ("User 8000", zh-Hans "用户8000"; just
 * "User" without a phone). At most 32 characters, trimmed. No random suffix: display names need not be unique (the
 * user name is the unique sign-in name; the app tells members apart by id and user name). Never throws.
 */
export function defaultDisplayName(email: string | null, phoneNumber: string | null, language: Language): string {
  const fromEmail = email ? nameFromEmail(email) : "";
  if (fromEmail) return fromEmail;
  return translate(language, "account.defaultName", { tail: phoneNumber?.slice(-4) ?? "" }).trim();
}

/**
 * Registers a user by e-mail (bindType 1) or phone (bindType 2) with the code sent to that account (spec §5
 * Register). The service region is stored once and never changed. User name (unique, signs in): `userName`, else
 * {@link defaultUserName}. Display name (users.name, what household members see): `name`, else
 * {@link defaultDisplayName} in the caller's language.
 * Code use, duplicate check and insert happen in one transaction: a failure leaves no user and an unspent code. The
 * code's tries are counted per `requester` (the HTTP caller's address, `Guards.codeRequester`; without one the caller
 * is the code's only requester, see CodeService.check).
 * @throws AppError Validation (account not an e-mail / phone, missing countryCode), InvalidCode, Conflict (409)
 *   when the e-mail, phone or user name is taken.
 */
export async function registerUser(
  ctx: CoreServices,
  input: RegisterInput,
  requester?: CodeRequester,
): Promise<{ id: string; userName: string }> {
  const { db } = ctx;
  let email: string | null = null;
  let phoneNumber: string | null = null;
  let countryCode: string | null = null;
  let target: string;
  if (input.bindType === BindType.Email) {
    email = normaliseEmail(input.account);
    if (!z.email().safeParse(email).success) throw invalid("account", "validation.invalidFormat", input.language);
    target = email;
  } else {
    phoneNumber = input.account.trim().replace(/^\+/, "");
    if (!/^\d{4,15}$/.test(phoneNumber)) throw invalid("account", "validation.invalidFormat", input.language);
    if (!input.countryCode) throw invalid("countryCode", "validation.required", input.language);
    countryCode = normaliseCountryCode(input.countryCode);
    target = phoneTarget(phoneNumber, countryCode);
  }
  const userName = input.userName?.trim() || defaultUserName(email);
  const name = input.name?.trim() || defaultDisplayName(email, phoneNumber, input.language);

  // Checked outside the transaction so a wrong try is counted even though the registration fails.
  const codeId = await ctx.codes.check("register", target, input.code, requester);
  const passwordHash = await hashPassword(input.password);
  const id = randomUUID();
  try {
    await db.transaction().execute(async (trx) => {
      await ctx.codes.consume(trx, codeId);
      if (await accountExists(trx, { email: email ?? undefined, phoneNumber: phoneNumber ?? undefined, userName })) {
        throw new AppError(ErrorCode.Conflict, "account.alreadyRegistered");
      }
      await trx
        .insertInto("users")
        .values({
          id,
          user_name: userName,
          name,
          email,
          phone_number: phoneNumber,
          country_code: countryCode,
          password_hash: passwordHash,
          service_region: input.serviceRegion,
          language_type: input.language,
          avatar: null,
          security_stamp: randomUUID(),
          is_deleted: 0,
          creation_time: ctx.now().toISOString(),
        })
        .execute();
    });
  } catch (err) {
    if (isUniqueViolation(err)) throw new AppError(ErrorCode.Conflict, "account.alreadyRegistered");
    throw err;
  }
  return { id, userName };
}

/** The bind types of spec §3 ("User bind types: 1 email, 2 phone"), as user_bind_type_list answers them. */
export function userBindTypes(): Array<{ value: number; name: string }> {
  return [
    { value: BindType.Email, name: "email" },
    { value: BindType.Phone, name: "phone" },
  ];
}
