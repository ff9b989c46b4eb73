import { catalogue } from "../../http/catalogue.ts";
import { registerMessages } from "../../http/messages.ts";

/**
 * Texts of the account and profile flows in the five languages (spec §1, §5, §8); English is the source.
 * `notify.*` keys are the e-mails and SMS of those flows, sent in the recipient's stored language.
 * `account.defaultName` is the display name given at sign-up without one: "User" and the phone number's last 4
 * digits (`tail`, empty without a phone).
 */
export const accountMessages = catalogue(
  {
    "account.passwordMismatch": "Passwords do not match.",
    "account.defaultName": "User {tail}",
    "profile.wrongPassword": "The current password is wrong.",
    "profile.userNameTaken": "This user name is already taken.",
    "profile.identityTaken": "This e-mail or phone number already belongs to another account.",
    "profile.sameIdentity": "This is already the e-mail or phone number of your account.",
    "profile.identityRequired": "Enter an e-mail, or a phone number with its country code.",
    "profile.noIdentity": "Your account has no e-mail or phone number to send the code to.",
    "profile.ticketInvalid":
      "The password verification has expired or is not valid. Please verify your password again.",
    "profile.avatarMissing": "Choose an image file to upload.",
    "profile.avatarType": "The image must be a PNG, JPEG or WebP file.",
    "profile.avatarTooLarge": "The image must be at most {max} MB.",
    "profile.volumeUnit": "Choose the volume unit: L (litres) or gal (US gallons).",
    "profile.hardnessUnit": "Choose the hardness unit: mgL (mg/L CaCO₃), dH (°dH), fH (°fH) or gpg.",
    "notify.reset.subject": "Reset your AquaPilot password",
    "notify.reset.body":
      "Your password reset code is {code}. It is valid for {minutes, plural, one {# minute} other {# minutes}}. If you did not ask for it, ignore this message.",
    "notify.identity.subject": "Confirm your new AquaPilot contact details",
    "notify.identity.body":
      "Your confirmation code is {code}. It is valid for {minutes, plural, one {# minute} other {# minutes}}. Enter it in the app to link this contact to your AquaPilot account.",
    "notify.registered.subject": "Your AquaPilot account",
    "notify.registered.body":
      "Someone asked to register a new AquaPilot account with this address, but you already have an account. Sign in, or reset your password if you have forgotten it. If you did not ask for this, ignore this message.",
    "notify.noAccount.subject": "AquaPilot password reset",
    "notify.noAccount.body":
      "Someone asked to reset the password of an AquaPilot account with this address, but no account uses it. To create one, register in the app. If you did not ask for this, ignore this message.",
    "notify.delete.subject": "Confirm the deletion of your AquaPilot account",
    "notify.delete.body":
      "Your security code to delete your AquaPilot account is {code}. It is valid for {minutes, plural, one {# minute} other {# minutes}}. If you did not ask for it, change your password.",
  },
  {
    "zh-Hans": {
      "account.passwordMismatch": "两次输入的密码不一致。",
      "account.defaultName": "用户{tail}",
      "profile.wrongPassword": "当前密码错误。",
      "profile.userNameTaken": "该用户名已被使用。",
      "profile.identityTaken": "该邮箱或手机号已属于其他账号。",
      "profile.sameIdentity": "这已经是您账号的邮箱或手机号。",
      "profile.identityRequired": "请输入邮箱，或手机号及其国家代码。",
      "profile.noIdentity": "您的账号没有可接收验证码的邮箱或手机号。",
      "profile.ticketInvalid": "密码验证已过期或无效，请重新验证密码。",
      "profile.avatarMissing": "请选择要上传的图片文件。",
      "profile.avatarType": "图片必须是 PNG、JPEG 或 WebP 格式。",
      "profile.avatarTooLarge": "图片不能超过 {max} MB。",
      "profile.volumeUnit": "请选择体积单位：L（升）或 gal（美制加仑）。",
      "profile.hardnessUnit": "请选择硬度单位：mgL（mg/L CaCO₃）、dH（°dH）、fH（°fH）或 gpg。",
      "notify.reset.subject": "重置您的 AquaPilot 密码",
      "notify.reset.body": "您的密码重置验证码是 {code}，{minutes} 分钟内有效。如果不是您本人操作，请忽略此消息。",
      "notify.identity.subject": "确认您的 AquaPilot 新联系方式",
      "notify.identity.body":
        "您的确认验证码是 {code}，{minutes} 分钟内有效。请在 App 中输入，将此联系方式绑定到您的 AquaPilot 账号。",
      "notify.registered.subject": "您的 AquaPilot 账号",
      "notify.registered.body":
        "有人请求用此地址注册新的 AquaPilot 账号，但您已经拥有账号。请直接登录；如果忘记了密码，请重置密码。如果不是您本人操作，请忽略此消息。",
      "notify.noAccount.subject": "AquaPilot 密码重置请求",
      "notify.noAccount.body":
        "有人请求重置使用此地址的 AquaPilot 账号的密码，但没有账号使用此地址。如需账号，请在 App 中注册。如果不是您本人操作，请忽略此消息。",
      "notify.delete.subject": "确认注销您的 AquaPilot 账号",
      "notify.delete.body":
        "您注销 AquaPilot 账号的安全验证码是 {code}，{minutes} 分钟内有效。如果不是您本人操作，请修改密码。",
    },
    es: {
      "account.passwordMismatch": "Las contraseñas no coinciden.",
      "account.defaultName": "Usuario {tail}",
      "profile.wrongPassword": "La contraseña actual es incorrecta.",
      "profile.userNameTaken": "Este nombre de usuario ya está en uso.",
      "profile.identityTaken": "Este correo electrónico o número de teléfono ya pertenece a otra cuenta.",
      "profile.sameIdentity": "Este ya es el correo electrónico o el número de teléfono de su cuenta.",
      "profile.identityRequired": "Introduzca un correo electrónico, o un número de teléfono con su código de país.",
      "profile.noIdentity": "Su cuenta no tiene correo electrónico ni teléfono al que enviar el código.",
      "profile.ticketInvalid":
        "La verificación de la contraseña ha caducado o no es válida. Verifique su contraseña de nuevo.",
      "profile.avatarMissing": "Elija un archivo de imagen para subir.",
      "profile.avatarType": "La imagen debe ser un archivo PNG, JPEG o WebP.",
      "profile.avatarTooLarge": "La imagen debe ocupar como máximo {max} MB.",
      "profile.volumeUnit": "Elija la unidad de volumen: L (litros) o gal (galones estadounidenses).",
      "profile.hardnessUnit": "Elija la unidad de dureza: mgL (mg/L CaCO₃), dH (°dH), fH (°fH) o gpg.",
      "notify.reset.subject": "Restablezca su contraseña de AquaPilot",
      "notify.reset.body":
        "Su código para restablecer la contraseña es {code}. Es válido durante {minutes, plural, one {# minuto} many {# minutos} other {# minutos}}. Si no lo ha solicitado, ignore este mensaje.",
      "notify.identity.subject": "Confirme sus nuevos datos de contacto de AquaPilot",
      "notify.identity.body":
        "Su código de confirmación es {code}. Es válido durante {minutes, plural, one {# minuto} many {# minutos} other {# minutos}}. Introdúzcalo en la app para vincular este contacto a su cuenta de AquaPilot.",
      "notify.registered.subject": "Su cuenta de AquaPilot",
      "notify.registered.body":
        "Alguien ha solicitado registrar una nueva cuenta de AquaPilot con esta dirección, pero usted ya tiene una cuenta. Inicie sesión o, si ha olvidado su contraseña, restablézcala. Si no lo ha solicitado, ignore este mensaje.",
      "notify.noAccount.subject": "Restablecimiento de contraseña de AquaPilot",
      "notify.noAccount.body":
        "Alguien ha solicitado restablecer la contraseña de una cuenta de AquaPilot con esta dirección, pero ninguna cuenta la utiliza. Para crear una, regístrese en la app. Si no lo ha solicitado, ignore este mensaje.",
      "notify.delete.subject": "Confirme la eliminación de su cuenta de AquaPilot",
      "notify.delete.body":
        "Su código de seguridad para eliminar su cuenta de AquaPilot es {code}. Es válido durante {minutes, plural, one {# minuto} many {# minutos} other {# minutos}}. Si no lo ha solicitado, cambie su contraseña.",
    },
    ru: {
      "account.passwordMismatch": "Пароли не совпадают.",
      "account.defaultName": "Пользователь {tail}",
      "profile.wrongPassword": "Текущий пароль неверен.",
      "profile.userNameTaken": "Это имя пользователя уже занято.",
      "profile.identityTaken": "Этот адрес эл. почты или номер телефона уже принадлежит другой учётной записи.",
      "profile.sameIdentity": "Это уже адрес эл. почты или номер телефона вашей учётной записи.",
      "profile.identityRequired": "Введите адрес эл. почты или номер телефона с кодом страны.",
      "profile.noIdentity": "У вашей учётной записи нет адреса эл. почты или телефона, на который можно отправить код.",
      "profile.ticketInvalid": "Подтверждение пароля истекло или недействительно. Подтвердите пароль снова.",
      "profile.avatarMissing": "Выберите файл изображения для загрузки.",
      "profile.avatarType": "Изображение должно быть в формате PNG, JPEG или WebP.",
      "profile.avatarTooLarge": "Размер изображения не должен превышать {max} МБ.",
      "profile.volumeUnit": "Выберите единицу объёма: L (литры) или gal (галлоны США).",
      "profile.hardnessUnit": "Выберите единицу жёсткости: mgL (мг/л CaCO₃), dH (°dH), fH (°fH) или gpg.",
      "notify.reset.subject": "Сброс пароля AquaPilot",
      "notify.reset.body":
        "Ваш код для сброса пароля: {code}. Он действителен {minutes, plural, one {# минуту} few {# минуты} many {# минут} other {# минуты}}. Если вы его не запрашивали, проигнорируйте это сообщение.",
      "notify.identity.subject": "Подтвердите новые контактные данные AquaPilot",
      "notify.identity.body":
        "Ваш код подтверждения: {code}. Он действителен {minutes, plural, one {# минуту} few {# минуты} many {# минут} other {# минуты}}. Введите его в приложении, чтобы привязать этот контакт к учётной записи AquaPilot.",
      "notify.registered.subject": "Ваша учётная запись AquaPilot",
      "notify.registered.body":
        "Кто-то запросил регистрацию новой учётной записи AquaPilot с этим адресом, но у вас уже есть учётная запись. Войдите в неё или сбросьте пароль, если вы его забыли. Если вы этого не запрашивали, проигнорируйте это сообщение.",
      "notify.noAccount.subject": "Запрос на сброс пароля AquaPilot",
      "notify.noAccount.body":
        "Кто-то запросил сброс пароля учётной записи AquaPilot с этим адресом, но ни одна учётная запись его не использует. Чтобы создать учётную запись, зарегистрируйтесь в приложении. Если вы этого не запрашивали, проигнорируйте это сообщение.",
      "notify.delete.subject": "Подтвердите удаление учётной записи AquaPilot",
      "notify.delete.body":
        "Ваш код безопасности для удаления учётной записи AquaPilot: {code}. Он действителен {minutes, plural, one {# минуту} few {# минуты} many {# минут} other {# минуты}}. Если вы его не запрашивали, смените пароль.",
    },
    fr: {
      "account.passwordMismatch": "Les mots de passe ne correspondent pas.",
      "account.defaultName": "Utilisateur {tail}",
      "profile.wrongPassword": "Le mot de passe actuel est erroné.",
      "profile.userNameTaken": "Ce nom d'utilisateur est déjà pris.",
      "profile.identityTaken": "Cette adresse e-mail ou ce numéro de téléphone appartient déjà à un autre compte.",
      "profile.sameIdentity": "C'est déjà l'adresse e-mail ou le numéro de téléphone de votre compte.",
      "profile.identityRequired": "Saisissez une adresse e-mail, ou un numéro de téléphone avec son indicatif pays.",
      "profile.noIdentity": "Votre compte n'a ni adresse e-mail ni téléphone où envoyer le code.",
      "profile.ticketInvalid":
        "La vérification du mot de passe a expiré ou n'est pas valide. Veuillez vérifier à nouveau votre mot de passe.",
      "profile.avatarMissing": "Choisissez un fichier image à envoyer.",
      "profile.avatarType": "L'image doit être un fichier PNG, JPEG ou WebP.",
      "profile.avatarTooLarge": "L'image doit faire au plus {max} Mo.",
      "profile.volumeUnit": "Choisissez l'unité de volume : L (litres) ou gal (gallons US).",
      "profile.hardnessUnit": "Choisissez l'unité de dureté : mgL (mg/L CaCO₃), dH (°dH), fH (°fH) ou gpg.",
      "notify.reset.subject": "Réinitialisez votre mot de passe AquaPilot",
      "notify.reset.body":
        "Votre code de réinitialisation du mot de passe est {code}. Il est valable {minutes, plural, one {# minute} many {# minutes} other {# minutes}}. Si vous ne l'avez pas demandé, ignorez ce message.",
      "notify.identity.subject": "Confirmez vos nouvelles coordonnées AquaPilot",
      "notify.identity.body":
        "Votre code de confirmation est {code}. Il est valable {minutes, plural, one {# minute} many {# minutes} other {# minutes}}. Saisissez-le dans l'application pour lier ce contact à votre compte AquaPilot.",
      "notify.registered.subject": "Votre compte AquaPilot",
      "notify.registered.body":
        "Quelqu'un a demandé à créer un nouveau compte AquaPilot avec cette adresse, mais vous avez déjà un compte. Connectez-vous, ou réinitialisez votre mot de passe si vous l'avez oublié. Si vous ne l'avez pas demandé, ignorez ce message.",
      "notify.noAccount.subject": "Réinitialisation du mot de passe AquaPilot",
      "notify.noAccount.body":
        "Quelqu'un a demandé à réinitialiser le mot de passe d'un compte AquaPilot avec cette adresse, mais aucun compte ne l'utilise. Pour en créer un, inscrivez-vous dans l'app. Si vous ne l'avez pas demandé, ignorez ce message.",
      "notify.delete.subject": "Confirmez la suppression de votre compte AquaPilot",
      "notify.delete.body":
        "Votre code de sécurité pour supprimer votre compte AquaPilot est {code}. Il est valable {minutes, plural, one {# minute} many {# minutes} other {# minutes}}. Si vous ne l'avez pas demandé, changez votre mot de passe.",
    },
  },
);

/** A key of the account module's texts. */
export type AccountMessageKey = keyof (typeof accountMessages)["en"];

declare module "../../http/messages.ts" {
  /** This module's keys in the catalogue's key union (http/messages.ts {@link CatalogueKeys}). */
  interface CatalogueKeys extends Record<keyof (typeof accountMessages)["en"], true> {}
}

// The HTTP layer translates this module's keys once the module is loaded (http/messages.ts registerMessages).
registerMessages(accountMessages);
