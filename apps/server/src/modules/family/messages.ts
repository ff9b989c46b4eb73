import { catalogue } from "../../http/catalogue.ts";
import { registerMessages } from "../../http/messages.ts";

/**
 * Texts of the household flows (family, family-user, share codes, region lookup) in the five languages (spec §1,
 * §5, §6); English is the source. "family.addressRequired" is the spec §5 text verbatim.
 */
export const familyMessages = catalogue(
  {
    "family.addressRequired": "Select household address",
    "family.memberNotFound": "This member is not in the household.",
    "family.adminCannotLeave":
      "You are the administrator of this household. Transfer the administrator role to another member, or delete the household, before leaving.",
    "family.cannotRemoveSelf":
      "You cannot remove yourself. Transfer the administrator role first, or delete the household.",
    "family.transferTargetRequired": "Choose the member who becomes the administrator.",
    "family.transferToSelf": "You are already the administrator. Choose another member.",
    "family.codeInvalid": "This QR code is not a valid household invitation.",
    "family.codeExpired": "This QR code has expired. Ask the administrator for a new one.",
    "family.codeRevoked": "This QR code is no longer valid. Ask the administrator for a new one.",
    "family.shareNotFound": "Share code not found.",
    "location.notFound": "Region not found.",
    "location.invalidIp": "This is not a valid IP address.",
  },
  {
    "zh-Hans": {
      "family.addressRequired": "请选择家庭地址",
      "family.memberNotFound": "该成员不在此家庭中。",
      "family.adminCannotLeave": "您是该家庭的管理员。请先将管理员转让给其他成员或删除家庭，然后再退出。",
      "family.cannotRemoveSelf": "不能移除自己。请先转让管理员，或删除家庭。",
      "family.transferTargetRequired": "请选择接任管理员的成员。",
      "family.transferToSelf": "您已经是管理员，请选择其他成员。",
      "family.codeInvalid": "该二维码不是有效的家庭邀请。",
      "family.codeExpired": "该二维码已过期，请让管理员重新生成。",
      "family.codeRevoked": "该二维码已失效，请让管理员重新生成。",
      "family.shareNotFound": "未找到该分享码。",
      "location.notFound": "未找到该地区。",
      "location.invalidIp": "不是有效的 IP 地址。",
    },
    es: {
      "family.addressRequired": "Seleccione la dirección del hogar",
      "family.memberNotFound": "Este miembro no pertenece al hogar.",
      "family.adminCannotLeave":
        "Es el administrador de este hogar. Transfiera el rol de administrador a otro miembro, o elimine el hogar, antes de salir.",
      "family.cannotRemoveSelf":
        "No puede eliminarse a sí mismo. Transfiera primero el rol de administrador o elimine el hogar.",
      "family.transferTargetRequired": "Elija el miembro que será el administrador.",
      "family.transferToSelf": "Ya es el administrador. Elija otro miembro.",
      "family.codeInvalid": "Este código QR no es una invitación válida a un hogar.",
      "family.codeExpired": "Este código QR ha caducado. Pida uno nuevo al administrador.",
      "family.codeRevoked": "Este código QR ya no es válido. Pida uno nuevo al administrador.",
      "family.shareNotFound": "Código compartido no encontrado.",
      "location.notFound": "Región no encontrada.",
      "location.invalidIp": "No es una dirección IP válida.",
    },
    ru: {
      "family.addressRequired": "Выберите адрес дома",
      "family.memberNotFound": "Этого участника нет в доме.",
      "family.adminCannotLeave":
        "Вы администратор этого дома. Прежде чем выйти, передайте роль администратора другому участнику или удалите дом.",
      "family.cannotRemoveSelf": "Нельзя удалить самого себя. Сначала передайте роль администратора или удалите дом.",
      "family.transferTargetRequired": "Выберите участника, который станет администратором.",
      "family.transferToSelf": "Вы уже администратор. Выберите другого участника.",
      "family.codeInvalid": "Этот QR-код не является действительным приглашением в дом.",
      "family.codeExpired": "Срок действия QR-кода истёк. Попросите администратора создать новый.",
      "family.codeRevoked": "Этот QR-код больше не действителен. Попросите администратора создать новый.",
      "family.shareNotFound": "Код приглашения не найден.",
      "location.notFound": "Регион не найден.",
      "location.invalidIp": "Это не действительный IP-адрес.",
    },
    fr: {
      "family.addressRequired": "Sélectionnez l'adresse du foyer",
      "family.memberNotFound": "Ce membre ne fait pas partie du foyer.",
      "family.adminCannotLeave":
        "Vous êtes l'administrateur de ce foyer. Transférez le rôle d'administrateur à un autre membre, ou supprimez le foyer, avant de le quitter.",
      "family.cannotRemoveSelf":
        "Vous ne pouvez pas vous retirer vous-même. Transférez d'abord le rôle d'administrateur, ou supprimez le foyer.",
      "family.transferTargetRequired": "Choisissez le membre qui deviendra administrateur.",
      "family.transferToSelf": "Vous êtes déjà l'administrateur. Choisissez un autre membre.",
      "family.codeInvalid": "Ce code QR n'est pas une invitation valide à un foyer.",
      "family.codeExpired": "Ce code QR a expiré. Demandez-en un nouveau à l'administrateur.",
      "family.codeRevoked": "Ce code QR n'est plus valide. Demandez-en un nouveau à l'administrateur.",
      "family.shareNotFound": "Code de partage introuvable.",
      "location.notFound": "Région introuvable.",
      "location.invalidIp": "Ce n'est pas une adresse IP valide.",
    },
  },
);

declare module "../../http/messages.ts" {
  /** This module's keys in the catalogue's key union (http/messages.ts {@link CatalogueKeys}). */
  interface CatalogueKeys extends Record<keyof (typeof familyMessages)["en"], true> {}
}

// The HTTP layer translates this module's keys once the module is loaded (http/messages.ts registerMessages).
registerMessages(familyMessages);
