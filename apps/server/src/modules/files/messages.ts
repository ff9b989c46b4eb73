import { catalogue } from "../../http/catalogue.ts";
import { registerMessages } from "../../http/messages.ts";

/** Texts of the files module in the five languages (spec §1); English is the source. */
export const filesMessages = catalogue(
  {
    "files.notOwned": "This image was not uploaded from your account. Upload it again.",
    "files.tooMany": "Too many uploads in a short time. Please try again in a minute.",
    "device.imageNotAllowed": "Choose one of the device model's pictures or upload a photo.",
  },
  {
    "zh-Hans": {
      "files.notOwned": "该图片不是从您的账号上传的，请重新上传。",
      "files.tooMany": "短时间内上传过多，请一分钟后再试。",
      "device.imageNotAllowed": "请选择设备型号的图片或上传照片。",
    },
    es: {
      "files.notOwned": "Esta imagen no se subió desde su cuenta. Vuelva a subirla.",
      "files.tooMany": "Demasiadas subidas en poco tiempo. Inténtelo de nuevo en un minuto.",
      "device.imageNotAllowed": "Elija una de las imágenes del modelo del dispositivo o suba una foto.",
    },
    ru: {
      "files.notOwned": "Это изображение загружено не из вашей учётной записи. Загрузите его снова.",
      "files.tooMany": "Слишком много загрузок за короткое время. Повторите попытку через минуту.",
      "device.imageNotAllowed": "Выберите одно из изображений модели устройства или загрузите фото.",
    },
    fr: {
      "files.notOwned": "Cette image n'a pas été envoyée depuis votre compte. Envoyez-la de nouveau.",
      "files.tooMany": "Trop d'envois en peu de temps. Réessayez dans une minute.",
      "device.imageNotAllowed": "Choisissez l'une des images du modèle de l'appareil ou envoyez une photo.",
    },
  },
);

declare module "../../http/messages.ts" {
  /** This module's keys in the catalogue's key union (http/messages.ts {@link CatalogueKeys}). */
  interface CatalogueKeys extends Record<keyof (typeof filesMessages)["en"], true> {}
}

// The HTTP layer translates this module's keys once the module is loaded (http/messages.ts registerMessages).
registerMessages(filesMessages);
