import { catalogue } from "../../http/catalogue.ts";
import { registerMessages } from "../../http/messages.ts";

/** Texts of the firmware module in the five languages (spec §1); English is the source. */
export const firmwareMessages = catalogue(
  {
    "firmware.badModel": "The model must be 1–64 letters, digits, dots, dashes or underscores.",
    "firmware.badVersion": "The version must be dotted numbers such as 1.2.0.",
    "firmware.empty": "The firmware image is empty.",
    "firmware.tooLarge": "The firmware image is larger than 16 MiB.",
    "firmware.sizeMismatch": "The stated size ({stated} bytes) differs from the image ({actual} bytes).",
    "firmware.hashMismatch": "The stated SHA-256 differs from the image's ({actual}).",
    "firmware.unsigned": "The firmware image has no signature. Sign it with the vendor's key.",
    "firmware.badSignature": "The signature is not valid for this image or not made by a trusted vendor key.",
    "firmware.duplicate": "{model} {version} exists already with different bytes. Give the new image a new version.",
  },
  {
    "zh-Hans": {
      "firmware.badModel": "型号必须为 1–64 个字母、数字、点、短横线或下划线。",
      "firmware.badVersion": "版本号必须是以点分隔的数字，例如 1.2.0。",
      "firmware.empty": "固件镜像为空。",
      "firmware.tooLarge": "固件镜像大于 16 MiB。",
      "firmware.sizeMismatch": "声明的大小（{stated} 字节）与镜像（{actual} 字节）不符。",
      "firmware.hashMismatch": "声明的 SHA-256 与镜像的（{actual}）不符。",
      "firmware.unsigned": "固件镜像没有签名，请用厂商密钥签名。",
      "firmware.badSignature": "签名对该镜像无效，或不是由受信任的厂商密钥签署。",
      "firmware.duplicate": "{model} {version} 已存在且内容不同，请为新镜像使用新的版本号。",
    },
    es: {
      "firmware.badModel": "El modelo debe tener de 1 a 64 letras, dígitos, puntos, guiones o guiones bajos.",
      "firmware.badVersion": "La versión debe ser números separados por puntos, como 1.2.0.",
      "firmware.empty": "La imagen de firmware está vacía.",
      "firmware.tooLarge": "La imagen de firmware supera los 16 MiB.",
      "firmware.sizeMismatch": "El tamaño indicado ({stated} bytes) no coincide con la imagen ({actual} bytes).",
      "firmware.hashMismatch": "El SHA-256 indicado no coincide con el de la imagen ({actual}).",
      "firmware.unsigned": "La imagen de firmware no tiene firma. Fírmela con la clave del fabricante.",
      "firmware.badSignature":
        "La firma no es válida para esta imagen o no la hizo una clave de fabricante de confianza.",
      "firmware.duplicate":
        "{model} {version} ya existe con otro contenido. Asigne una versión nueva a la nueva imagen.",
    },
    ru: {
      "firmware.badModel": "Модель — от 1 до 64 букв, цифр, точек, дефисов или подчёркиваний.",
      "firmware.badVersion": "Версия — числа через точку, например 1.2.0.",
      "firmware.empty": "Образ прошивки пуст.",
      "firmware.tooLarge": "Образ прошивки больше 16 МиБ.",
      "firmware.sizeMismatch": "Указанный размер ({stated} байт) не совпадает с образом ({actual} байт).",
      "firmware.hashMismatch": "Указанный SHA-256 не совпадает с SHA-256 образа ({actual}).",
      "firmware.unsigned": "У образа прошивки нет подписи. Подпишите его ключом производителя.",
      "firmware.badSignature": "Подпись не подходит к этому образу или сделана не доверенным ключом производителя.",
      "firmware.duplicate": "{model} {version} уже есть с другим содержимым. Дайте новому образу новую версию.",
    },
    fr: {
      "firmware.badModel": "Le modèle doit compter 1 à 64 lettres, chiffres, points, tirets ou tirets bas.",
      "firmware.badVersion": "La version doit être des nombres séparés par des points, comme 1.2.0.",
      "firmware.empty": "L'image du micrologiciel est vide.",
      "firmware.tooLarge": "L'image du micrologiciel dépasse 16 Mio.",
      "firmware.sizeMismatch": "La taille indiquée ({stated} octets) diffère de celle de l'image ({actual} octets).",
      "firmware.hashMismatch": "Le SHA-256 indiqué diffère de celui de l'image ({actual}).",
      "firmware.unsigned": "L'image du micrologiciel n'est pas signée. Signez-la avec la clé du fabricant.",
      "firmware.badSignature":
        "La signature n'est pas valide pour cette image ou n'a pas été faite par une clé de fabricant de confiance.",
      "firmware.duplicate":
        "{model} {version} existe déjà avec un autre contenu. Donnez une nouvelle version à la nouvelle image.",
    },
  },
);

declare module "../../http/messages.ts" {
  /** This module's keys in the catalogue's key union (http/messages.ts {@link CatalogueKeys}). */
  interface CatalogueKeys extends Record<keyof (typeof firmwareMessages)["en"], true> {}
}

// The HTTP layer translates this module's keys once the module is loaded (http/messages.ts registerMessages).
registerMessages(firmwareMessages);
