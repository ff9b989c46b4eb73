import { BindType, type Language } from "@aquapilot/contract";
import type { FastifyRequest } from "fastify";
import { hashPassword } from "../../auth/passwords.ts";
import { endSessions } from "../../auth/sessions.ts";
import type { CoreServices } from "../../core-services.ts";
import type { Db } from "../../db/index.ts";
import { AppError, ErrorCode } from "../../http/errors.ts";
import { translate } from "../../http/messages.ts";
import { normaliseCountryCode, normaliseEmail, phoneTarget, sendVerificationCode } from "./service.ts";

function liveUsers(db: Db) {
  return db.selectFrom("users").select(["id", "email", "phone_number", "country_code"]).where("is_deleted", "=", 0);
}

/**
 * Sends a password-reset code to `email` (spec §7 forget_password_send_email_code) in the account's stored language.
 * For an e-mail no live account has, it answers the same: a code is issued (same limits and 60 s rule) and never
 * sent; the e-mail says instead that no account uses the address, so neither the answer nor its timing
 * reveals whether the account exists.
 * @throws AppError TooManyRequests over a limit or within 60 s of the last code; Internal when delivery fails.
 */
export async function sendResetCodeByEmail(
  ctx: CoreServices,
  request: FastifyRequest,
  email: string,
  lang: Language,
): Promise<void> {
  const target = normaliseEmail(email);
  const user = await liveUsers(ctx.db).where("email", "=", target).executeTakeFirst();
  await sendVerificationCode(ctx, {
    purpose: "reset-password",
    channel: "email",
    recipient: target,
    userId: user?.id,
    lang,
    request,
    notice: user ? undefined : "no-account",
  });
}

/**
 * Sends a password-reset code by SMS to `countryCode` + `phoneNumber` (spec §7
 * forget_password_send_phone_password_code); like {@link sendResetCodeByEmail} it answers the same for a number no
 * live account has with that country code, and the SMS then says that no account uses the number.
 * @throws AppError TooManyRequests over a limit or within 60 s of the last code; Internal when delivery fails.
 */
export async function sendResetCodeByPhone(
  ctx: CoreServices,
  request: FastifyRequest,
  phoneNumber: string,
  countryCode: string,
  lang: Language,
): Promise<void> {
  const phone = phoneNumber.trim().replace(/^\+/, "");
  const cc = normaliseCountryCode(countryCode);
  const user = await liveUsers(ctx.db)
    .where("phone_number", "=", phone)
    .where("country_code", "=", cc)
    .executeTakeFirst();
  await sendVerificationCode(ctx, {
    purpose: "reset-password",
    channel: "sms",
    recipient: phoneTarget(phone, cc),
    userId: user?.id,
    lang,
    request,
    notice: user ? undefined : "no-account",
  });
}

/** Input of reset_password (spec §7 Q; §5 "account, code, new password, confirmation matching"). */
export interface ResetPasswordInput {
  /** E-mail or phone number. */
  account: string;
  code: string;
  password: string;
  confirmPassword: string;
  bindType?: 1 | 2;
  countryCode?: string;
}

/**
 * Sets a new password with a reset code (spec §5 "Find password"). The account is an e-mail (bindType 1, or any
 * account with "@") or a phone number (the registered country code is used when none is given). In one transaction:
 * the code is spent, the password hash replaced, the security stamp changed and every refresh token revoked; then
 * bus `user.revoked` ends the hub connections, and the account's sign-in failure streak ends (security/limits.ts
 * `SignInGuard.forgive`): whoever locked the password sign-in with wrong passwords, the owner signs in with the new
 * password at once, from any address. The code's tries are counted per client address of `request`
 * (`Guards.codeRequester`), so a stranger's wrong tries leave the owner's code alive. An unknown account fails
 * exactly like a wrong code.
 * @throws AppError Validation (account.passwordMismatch, member confirmPassword) before the code is tried;
 *   InvalidCode (wrong, expired, reused or dead code, or unknown account).
 */
export async function resetPassword(
  ctx: CoreServices,
  request: FastifyRequest,
  input: ResetPasswordInput,
  lang: Language,
): Promise<void> {
  if (input.password !== input.confirmPassword) {
    throw new AppError(ErrorCode.Validation, "account.passwordMismatch", {}, [
      { message: translate(lang, "account.passwordMismatch"), members: ["confirmPassword"] },
    ]);
  }
  const byEmail = input.bindType ? input.bindType === BindType.Email : input.account.includes("@");
  let target: string;
  let user: { id: string } | undefined;
  if (byEmail) {
    target = normaliseEmail(input.account);
    user = await liveUsers(ctx.db).where("email", "=", target).executeTakeFirst();
  } else {
    const phone = input.account.trim().replace(/^\+/, "");
    const found = await liveUsers(ctx.db).where("phone_number", "=", phone).executeTakeFirst();
    const cc = input.countryCode ? normaliseCountryCode(input.countryCode) : found?.country_code;
    if (!cc) throw new AppError(ErrorCode.InvalidCode, "account.codeNotFound");
    target = phoneTarget(phone, cc);
    user = found && found.country_code === cc ? found : undefined;
  }
  const codeId = await ctx.codes.check("reset-password", target, input.code, ctx.guards.codeRequester(request));
  // Only reachable by guessing the code of an account that does not exist: the same answer as a missing code.
  if (!user) throw new AppError(ErrorCode.InvalidCode, "account.codeNotFound");
  const userId = user.id;
  const passwordHash = await hashPassword(input.password);
  await ctx.db.transaction().execute(async (trx) => {
    await ctx.codes.consume(trx, codeId);
    await trx.updateTable("users").set({ password_hash: passwordHash }).where("id", "=", userId).execute();
    await endSessions(trx, userId, ctx.now(), "password-reset");
  });
  ctx.bus.publish({ type: "user.revoked", userId });
  await ctx.guards.signIn.forgive(request, userId);
}
