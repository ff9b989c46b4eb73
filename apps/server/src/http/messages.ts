import { DEFAULT_LANGUAGE, LANGUAGES, type Language } from "@aquapilot/contract";
import { securityMessages } from "../security/messages.ts";
import { catalogue } from "./catalogue.ts";
import { edgeMessages } from "./edge-messages.ts";
import { formatMessage, type MessageParams } from "./message-format.ts";

/**
 * Every key of the server's message catalogue, as the keys of one interface, so a wrong key does not compile: this file
 * declares its own and the security and edge parts' keys; each module adds its part's keys from its own
 * `messages.ts` by declaration merging (`declare module "../../http/messages.ts"`), so the HTTP layer imports no
 * module and a key that no part defines does not compile where a {@link MessageKey} is expected (AppError).
 */
export interface CatalogueKeys extends Record<BaseKey | SecurityKey | EdgeKey, true> {}

/** A key of the server's message catalogue (see {@link CatalogueKeys}). */
export type MessageKey = keyof CatalogueKeys;

type SecurityKey = keyof (typeof securityMessages)["en"];
type EdgeKey = keyof (typeof edgeMessages)["en"];

/**
 * The server's message catalogue (spec §1 languages; §8 error texts). English is the source; every other language
 * must have exactly the same keys (checked by the type and by messages.test.ts). `{name}` placeholders are filled by
 * {@link translate}.
 */
const en = {
  "error.validation": "Your request is not valid.",
  "error.badRequest": "The request could not be understood.",
  "error.unauthorized": "Login expired. Please sign in again.",
  "error.forbidden": "You are not allowed to do this.",
  "error.notFound": "Not found.",
  "error.internal": "System error. Please try again later.",
  "error.tooManyRequests": "Too many requests. Please try again later.",
  "idempotency.keyInvalid": "The Idempotency-Key header must be 1 to 128 visible ASCII characters.",
  "idempotency.keyReused": "This Idempotency-Key was already used for a different request.",
  "idempotency.inProgress": "The same request is still being processed. Please wait a moment.",
  "validation.required": "{field} is required.",
  "validation.tooShort": "{field} must be at least {min, plural, one {# character} other {# characters}} long.",
  "validation.tooLong": "{field} must be at most {max, plural, one {# character} other {# characters}} long.",
  "validation.tooSmall": "{field} must be at least {min}.",
  "validation.tooBig": "{field} must be at most {max}.",
  "validation.invalidFormat": "{field} has an invalid format.",
  "validation.invalid": "{field} is not valid.",
  "family.notFound": "Household not found.",
  "family.notAdmin": "Only the household administrator can do this.",
  "device.notFound": "Device not found.",
  "device.offline": "Device offline.",
  "device.commandIdInUse": "This command id was already used for another device. Please try again.",
  "user.notFound": "User not found.",
  "account.alreadyRegistered": "This account is already registered.",
  "account.codeNotFound": "The verification code has expired or was not requested. Please request a new code.",
  "account.codeWrong": "Verification failed: wrong code. {remaining, plural, one {# try} other {# tries}} left.",
  "account.codeDead": "Too many wrong tries. Please request a new code.",
  "account.codeTooSoon": "A code was just sent. Please wait {seconds} s before requesting another one.",
  "account.countryCodeRequired": "A country code is required for a phone number.",
  "account.sendFailed": "The code could not be sent. Please try again later.",
  "token.invalidCredentials": "Login failed: wrong account or password.",
  "token.invalidRefresh": "The refresh token is invalid or expired. Please sign in again.",
  "token.passwordChanged": "Your password was changed on another device. Sign in again.",
  "token.accountDeleted": "Your account was deleted.",
  "token.sessionEnded": "You were signed out of this device. Sign in again.",
  "token.unsupportedGrant": "Unsupported grant_type.",
  "token.invalidRequest": "The token request is missing a required parameter.",
  "notify.code.subject": "Your AquaPilot verification code",
  "notify.code.body":
    "Your verification code is {code}. It is valid for {minutes, plural, one {# minute} other {# minutes}}. Do not share it with anyone.",
} as const;

/** A key of the server message catalogue. */
/** The keys of this file's own part of the catalogue. */
type BaseKey = keyof typeof en;

const zhHans: Record<BaseKey, string> = {
  "error.validation": "请求无效。",
  "error.badRequest": "无法理解该请求。",
  "error.unauthorized": "登录已过期，请重新登录。",
  "error.forbidden": "您无权执行此操作。",
  "error.notFound": "未找到。",
  "error.internal": "系统错误，请稍后再试。",
  "error.tooManyRequests": "请求过于频繁，请稍后再试。",
  "idempotency.keyInvalid": "Idempotency-Key 请求头须为 1 到 128 个可见 ASCII 字符。",
  "idempotency.keyReused": "该 Idempotency-Key 已用于另一个请求。",
  "idempotency.inProgress": "相同的请求仍在处理中，请稍候。",
  "validation.required": "{field} 为必填项。",
  "validation.tooShort": "{field} 至少需要 {min} 个字符。",
  "validation.tooLong": "{field} 最多 {max} 个字符。",
  "validation.tooSmall": "{field} 不能小于 {min}。",
  "validation.tooBig": "{field} 不能大于 {max}。",
  "validation.invalidFormat": "{field} 格式不正确。",
  "validation.invalid": "{field} 无效。",
  "family.notFound": "家庭不存在。",
  "family.notAdmin": "只有家庭管理员可以执行此操作。",
  "device.notFound": "设备不存在。",
  "device.offline": "设备离线。",
  "device.commandIdInUse": "此命令编号已用于另一台设备，请重试。",
  "user.notFound": "用户不存在。",
  "account.alreadyRegistered": "该账号已注册。",
  "account.codeNotFound": "验证码已过期或未获取，请重新获取验证码。",
  "account.codeWrong": "验证失败：验证码错误，还可尝试 {remaining} 次。",
  "account.codeDead": "错误次数过多，请重新获取验证码。",
  "account.codeTooSoon": "验证码刚刚已发送，请 {seconds} 秒后再试。",
  "account.countryCodeRequired": "手机号需要填写国家代码。",
  "account.sendFailed": "验证码发送失败，请稍后再试。",
  "token.invalidCredentials": "登录失败：账号或密码错误。",
  "token.invalidRefresh": "刷新令牌无效或已过期，请重新登录。",
  "token.passwordChanged": "您的密码已在另一台设备上修改，请重新登录。",
  "token.accountDeleted": "您的账号已注销。",
  "token.sessionEnded": "您已在此设备上退出登录，请重新登录。",
  "token.unsupportedGrant": "不支持的 grant_type。",
  "token.invalidRequest": "令牌请求缺少必需的参数。",
  "notify.code.subject": "您的 AquaPilot 验证码",
  "notify.code.body": "您的验证码是 {code}，{minutes} 分钟内有效。请勿告诉他人。",
};

const es: Record<BaseKey, string> = {
  "error.validation": "Su solicitud no es válida.",
  "error.badRequest": "No se pudo entender la solicitud.",
  "error.unauthorized": "La sesión ha caducado. Inicie sesión de nuevo.",
  "error.forbidden": "No tiene permiso para hacer esto.",
  "error.notFound": "No encontrado.",
  "error.internal": "Error del sistema. Inténtelo de nuevo más tarde.",
  "error.tooManyRequests": "Demasiadas solicitudes. Inténtelo de nuevo más tarde.",
  "idempotency.keyInvalid": "La cabecera Idempotency-Key debe tener de 1 a 128 caracteres ASCII visibles.",
  "idempotency.keyReused": "Esta Idempotency-Key ya se usó para otra solicitud.",
  "idempotency.inProgress": "La misma solicitud aún se está procesando. Espere un momento.",
  "validation.required": "{field} es obligatorio.",
  "validation.tooShort":
    "{field} debe tener al menos {min, plural, one {# carácter} many {# caracteres} other {# caracteres}}.",
  "validation.tooLong":
    "{field} debe tener como máximo {max, plural, one {# carácter} many {# caracteres} other {# caracteres}}.",
  "validation.tooSmall": "{field} debe ser como mínimo {min}.",
  "validation.tooBig": "{field} debe ser como máximo {max}.",
  "validation.invalidFormat": "{field} tiene un formato no válido.",
  "validation.invalid": "{field} no es válido.",
  "family.notFound": "Hogar no encontrado.",
  "family.notAdmin": "Solo el administrador del hogar puede hacer esto.",
  "device.notFound": "Dispositivo no encontrado.",
  "device.offline": "Dispositivo sin conexión.",
  "device.commandIdInUse": "Este identificador de orden ya se usó para otro dispositivo. Inténtelo de nuevo.",
  "user.notFound": "Usuario no encontrado.",
  "account.alreadyRegistered": "Esta cuenta ya está registrada.",
  "account.codeNotFound": "El código de verificación ha caducado o no se solicitó. Solicite un código nuevo.",
  "account.codeWrong":
    "Verificación fallida: código incorrecto. {remaining, plural, one {Queda # intento} many {Quedan # intentos} other {Quedan # intentos}}.",
  "account.codeDead": "Demasiados intentos fallidos. Solicite un código nuevo.",
  "account.codeTooSoon": "Se acaba de enviar un código. Espere {seconds} s antes de solicitar otro.",
  "account.countryCodeRequired": "Un número de teléfono necesita el código de país.",
  "account.sendFailed": "No se pudo enviar el código. Inténtelo de nuevo más tarde.",
  "token.invalidCredentials": "Error de inicio de sesión: cuenta o contraseña incorrecta.",
  "token.invalidRefresh": "El token de actualización no es válido o ha caducado. Inicie sesión de nuevo.",
  "token.passwordChanged": "Su contraseña se cambió en otro dispositivo. Inicie sesión de nuevo.",
  "token.accountDeleted": "Su cuenta fue eliminada.",
  "token.sessionEnded": "Se cerró la sesión en este dispositivo. Inicie sesión de nuevo.",
  "token.unsupportedGrant": "grant_type no admitido.",
  "token.invalidRequest": "Falta un parámetro obligatorio en la solicitud del token.",
  "notify.code.subject": "Su código de verificación de AquaPilot",
  "notify.code.body":
    "Su código de verificación es {code}. Es válido durante {minutes, plural, one {# minuto} many {# minutos} other {# minutos}}. No lo comparta con nadie.",
};

const ru: Record<BaseKey, string> = {
  "error.validation": "Запрос недействителен.",
  "error.badRequest": "Не удалось разобрать запрос.",
  "error.unauthorized": "Сеанс истёк. Войдите снова.",
  "error.forbidden": "У вас нет прав на это действие.",
  "error.notFound": "Не найдено.",
  "error.internal": "Системная ошибка. Повторите попытку позже.",
  "error.tooManyRequests": "Слишком много запросов. Повторите попытку позже.",
  "idempotency.keyInvalid": "Заголовок Idempotency-Key должен содержать от 1 до 128 видимых символов ASCII.",
  "idempotency.keyReused": "Этот Idempotency-Key уже использован для другого запроса.",
  "idempotency.inProgress": "Такой же запрос ещё обрабатывается. Подождите немного.",
  "validation.required": "Поле {field} обязательно.",
  "validation.tooShort":
    "Поле {field} должно содержать не менее {min, plural, one {# символа} few {# символов} many {# символов} other {# символа}}.",
  "validation.tooLong":
    "Поле {field} должно содержать не более {max, plural, one {# символа} few {# символов} many {# символов} other {# символа}}.",
  "validation.tooSmall": "Значение {field} должно быть не меньше {min}.",
  "validation.tooBig": "Значение {field} должно быть не больше {max}.",
  "validation.invalidFormat": "Поле {field} имеет неверный формат.",
  "validation.invalid": "Поле {field} недействительно.",
  "family.notFound": "Дом не найден.",
  "family.notAdmin": "Это может сделать только администратор дома.",
  "device.notFound": "Устройство не найдено.",
  "device.offline": "Устройство не в сети.",
  "device.commandIdInUse": "Этот идентификатор команды уже использован для другого устройства. Повторите попытку.",
  "user.notFound": "Пользователь не найден.",
  "account.alreadyRegistered": "Эта учётная запись уже зарегистрирована.",
  "account.codeNotFound": "Код подтверждения истёк или не запрашивался. Запросите новый код.",
  "account.codeWrong":
    "Проверка не пройдена: неверный код. {remaining, plural, one {Осталась # попытка} few {Осталось # попытки} many {Осталось # попыток} other {Осталось # попытки}}.",
  "account.codeDead": "Слишком много неверных попыток. Запросите новый код.",
  "account.codeTooSoon": "Код только что отправлен. Подождите {seconds} с перед повторным запросом.",
  "account.countryCodeRequired": "Для номера телефона нужен код страны.",
  "account.sendFailed": "Не удалось отправить код. Повторите попытку позже.",
  "token.invalidCredentials": "Ошибка входа: неверная учётная запись или пароль.",
  "token.invalidRefresh": "Токен обновления недействителен или истёк. Войдите снова.",
  "token.passwordChanged": "Ваш пароль изменён на другом устройстве. Войдите снова.",
  "token.accountDeleted": "Ваша учётная запись удалена.",
  "token.sessionEnded": "Вы вышли из аккаунта на этом устройстве. Войдите снова.",
  "token.unsupportedGrant": "Неподдерживаемый grant_type.",
  "token.invalidRequest": "В запросе токена не хватает обязательного параметра.",
  "notify.code.subject": "Ваш код подтверждения AquaPilot",
  "notify.code.body":
    "Ваш код подтверждения: {code}. Он действителен {minutes, plural, one {# минуту} few {# минуты} many {# минут} other {# минуты}}. Никому его не сообщайте.",
};

const fr: Record<BaseKey, string> = {
  "error.validation": "Votre requête n'est pas valide.",
  "error.badRequest": "La requête n'a pas pu être comprise.",
  "error.unauthorized": "Session expirée. Veuillez vous reconnecter.",
  "error.forbidden": "Vous n'êtes pas autorisé à faire cela.",
  "error.notFound": "Introuvable.",
  "error.internal": "Erreur système. Veuillez réessayer plus tard.",
  "error.tooManyRequests": "Trop de requêtes. Veuillez réessayer plus tard.",
  "idempotency.keyInvalid": "L'en-tête Idempotency-Key doit comporter de 1 à 128 caractères ASCII visibles.",
  "idempotency.keyReused": "Cette Idempotency-Key a déjà servi pour une autre requête.",
  "idempotency.inProgress": "La même requête est encore en cours de traitement. Veuillez patienter.",
  "validation.required": "{field} est obligatoire.",
  "validation.tooShort":
    "{field} doit contenir au moins {min, plural, one {# caractère} many {# caractères} other {# caractères}}.",
  "validation.tooLong":
    "{field} doit contenir au plus {max, plural, one {# caractère} many {# caractères} other {# caractères}}.",
  "validation.tooSmall": "{field} doit être au moins {min}.",
  "validation.tooBig": "{field} doit être au plus {max}.",
  "validation.invalidFormat": "{field} a un format invalide.",
  "validation.invalid": "{field} n'est pas valide.",
  "family.notFound": "Foyer introuvable.",
  "family.notAdmin": "Seul l'administrateur du foyer peut faire cela.",
  "device.notFound": "Appareil introuvable.",
  "device.offline": "Appareil hors ligne.",
  "device.commandIdInUse": "Cet identifiant de commande a déjà servi pour un autre appareil. Veuillez réessayer.",
  "user.notFound": "Utilisateur introuvable.",
  "account.alreadyRegistered": "Ce compte est déjà enregistré.",
  "account.codeNotFound": "Le code de vérification a expiré ou n'a pas été demandé. Demandez un nouveau code.",
  "account.codeWrong":
    "Échec de la vérification : code erroné. Encore {remaining, plural, one {# essai} many {# essais} other {# essais}}.",
  "account.codeDead": "Trop d'essais erronés. Demandez un nouveau code.",
  "account.codeTooSoon": "Un code vient d'être envoyé. Attendez {seconds} s avant d'en demander un autre.",
  "account.countryCodeRequired": "Un numéro de téléphone nécessite un indicatif pays.",
  "account.sendFailed": "Le code n'a pas pu être envoyé. Veuillez réessayer plus tard.",
  "token.invalidCredentials": "Échec de la connexion : compte ou mot de passe erroné.",
  "token.invalidRefresh": "Le jeton d'actualisation est invalide ou expiré. Veuillez vous reconnecter.",
  "token.passwordChanged": "Votre mot de passe a été modifié sur un autre appareil. Reconnectez-vous.",
  "token.accountDeleted": "Votre compte a été supprimé.",
  "token.sessionEnded": "Vous avez été déconnecté de cet appareil. Reconnectez-vous.",
  "token.unsupportedGrant": "grant_type non pris en charge.",
  "token.invalidRequest": "Il manque un paramètre obligatoire dans la demande de jeton.",
  "notify.code.subject": "Votre code de vérification AquaPilot",
  "notify.code.body":
    "Votre code de vérification est {code}. Il est valable {minutes, plural, one {# minute} many {# minutes} other {# minutes}}. Ne le communiquez à personne.",
};

/** Every language's catalogue, keyed by the spec §1 language code. */
const base = catalogue<BaseKey>(en, { "zh-Hans": zhHans, es, ru, fr });
/** The whole catalogue per language: the parts above, then each module's part as it registers (registerMessages). */
export const MESSAGES: Record<Language, Record<string, string>> = Object.fromEntries(
  LANGUAGES.map((lang) => [lang, {}]),
) as Record<Language, Record<string, string>>;

const registered = new Set<Record<Language, Record<string, string>>>();

/**
 * Adds a part of the catalogue (`catalogue()` of http/catalogue.ts) to {@link MESSAGES}. Modules register their own
 * part from their `messages.ts` (the HTTP layer never imports a module; a module's part is in as soon as
 * anything loads the module). Registering the same part again does nothing.
 * @throws Error when a key of the part is already defined by another part (a mistake, found at start-up).
 */
export function registerMessages(part: Record<Language, Record<string, string>>): void {
  if (registered.has(part)) return;
  for (const key of Object.keys(part.en)) {
    if (Object.hasOwn(MESSAGES.en, key)) throw new Error(`message key ${key} is defined twice`);
  }
  registered.add(part);
  for (const lang of LANGUAGES) Object.assign(MESSAGES[lang], part[lang]);
}

for (const part of [base, securityMessages, edgeMessages]) registerMessages(part);

/** True when `key` is a key of the catalogue (AppError carries keys as plain strings). */
export function isMessageKey(key: string): boolean {
  return Object.hasOwn(MESSAGES.en, key);
}

/**
 * The message for `key` in `lang`, with `{name}` placeholders filled from `params` and plural blocks
 * (`{days, plural, one {# day} other {# days}}`) resolved by the language's plural rules (see message-format.ts,
 * docs/glossary.md "Plurals"). An unknown key is returned as is (so a typo shows up instead of vanishing).
 */
export function translate(lang: Language, key: string, params: MessageParams = {}): string {
  const template = isMessageKey(key) ? (MESSAGES[lang][key] ?? MESSAGES[DEFAULT_LANGUAGE][key]) : key;
  return formatMessage(lang, template, params);
}

/**
 * Picks the interface language from an `Accept-Language` header (spec §1, §4 "zh maps to zh-Hans"):
 * entries are tried by descending q; "zh", "zh-CN", "zh-Hans-…" and any other Chinese tag give zh-Hans;
 * "en-US" gives en; nothing usable gives zh-Hans, the default and fallback.
 */
export function resolveLanguage(acceptLanguage: string | string[] | undefined): Language {
  const header = Array.isArray(acceptLanguage) ? acceptLanguage.join(",") : acceptLanguage;
  if (!header) return DEFAULT_LANGUAGE;
  const ranged = header
    .split(",")
    .map((part, index) => {
      const [tag, ...params] = part.trim().split(";");
      const q = params.map((p) => p.trim()).find((p) => p.startsWith("q="));
      return { tag: tag.trim().toLowerCase(), q: q ? Number(q.slice(2)) : 1, index };
    })
    .filter((r) => r.tag && Number.isFinite(r.q) && r.q > 0)
    .sort((a, b) => b.q - a.q || a.index - b.index);
  for (const { tag } of ranged) {
    const primary = tag.split("-")[0];
    if (primary === "zh") return "zh-Hans";
    const found = LANGUAGES.find((l) => l.toLowerCase() === primary);
    if (found) return found;
  }
  return DEFAULT_LANGUAGE;
}
