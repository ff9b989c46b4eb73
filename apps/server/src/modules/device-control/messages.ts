import { catalogue } from "../../http/catalogue.ts";
import { registerMessages } from "../../http/messages.ts";

type Key =
  | "deviceControl.offline"
  | "deviceControl.updating"
  | "deviceControl.badConfig"
  | "deviceControl.badTime"
  | "deviceControl.failed"
  | "deviceControl.commandNotFound"
  | "deviceControl.lowSalt"
  | "deviceControl.saltEmpty"
  | "deviceControl.noImage";

/** Texts of the device-control module in the five languages (spec §1); English is the source (§5, §8 labels). */
export const deviceControlMessages = catalogue<Key>(
  {
    "deviceControl.offline": "Device offline",
    "deviceControl.updating": "The device is updating. Please wait until the update has finished.",
    "deviceControl.badConfig": "Please enter the correct configuration",
    "deviceControl.badTime": "Please enter a valid time.",
    "deviceControl.failed": "The device could not carry out the command ({error}).",
    "deviceControl.commandNotFound": "Command not found.",
    "deviceControl.lowSalt":
      "Salt is running low: about {days, plural, one {# day} other {# days}} left. Please refill the brine tank.",
    "deviceControl.saltEmpty": "The brine tank is out of salt. Please refill it.",
    "deviceControl.noImage": "No signed firmware image of this version is available for this device model.",
  },
  {
    "zh-Hans": {
      "deviceControl.offline": "设备离线",
      "deviceControl.updating": "设备正在升级，请等待升级完成。",
      "deviceControl.badConfig": "请输入正确的配置",
      "deviceControl.badTime": "请输入有效的时间。",
      "deviceControl.failed": "设备无法执行该命令（{error}）。",
      "deviceControl.commandNotFound": "未找到该命令。",
      "deviceControl.lowSalt": "盐量不足：约剩 {days} 天。请为盐箱加盐。",
      "deviceControl.saltEmpty": "盐箱已无盐，请加盐。",
      "deviceControl.noImage": "该设备型号没有此版本的已签名固件镜像。",
    },
    es: {
      "deviceControl.offline": "Dispositivo sin conexión",
      "deviceControl.updating": "El dispositivo se está actualizando. Espere a que termine la actualización.",
      "deviceControl.badConfig": "Introduzca la configuración correcta",
      "deviceControl.badTime": "Introduzca una hora válida.",
      "deviceControl.failed": "El dispositivo no pudo ejecutar el comando ({error}).",
      "deviceControl.commandNotFound": "Comando no encontrado.",
      "deviceControl.lowSalt":
        "Queda poca sal: {days, plural, one {aproximadamente # día} many {unos # días} other {unos # días}}. Rellene el tanque de salmuera.",
      "deviceControl.saltEmpty": "El tanque de salmuera no tiene sal. Rellénelo.",
      "deviceControl.noImage": "No hay ninguna imagen de firmware firmada de esta versión para este modelo.",
    },
    ru: {
      "deviceControl.offline": "Устройство не в сети",
      "deviceControl.updating": "Устройство обновляется. Дождитесь окончания обновления.",
      "deviceControl.badConfig": "Введите правильную конфигурацию",
      "deviceControl.badTime": "Введите правильное время.",
      "deviceControl.failed": "Устройство не смогло выполнить команду ({error}).",
      "deviceControl.commandNotFound": "Команда не найдена.",
      "deviceControl.lowSalt":
        "Соль заканчивается: {days, plural, one {остался примерно # день} few {осталось примерно # дня} many {осталось примерно # дней} other {осталось примерно # дня}}. Досыпьте соль в солевой бак.",
      "deviceControl.saltEmpty": "В солевом баке нет соли. Досыпьте соль.",
      "deviceControl.noImage": "Для этой модели нет подписанного образа прошивки этой версии.",
    },
    fr: {
      "deviceControl.offline": "Appareil hors ligne",
      "deviceControl.updating": "L'appareil est en cours de mise à jour. Attendez la fin de la mise à jour.",
      "deviceControl.badConfig": "Veuillez saisir la configuration correcte",
      "deviceControl.badTime": "Veuillez saisir une heure valide.",
      "deviceControl.failed": "L'appareil n'a pas pu exécuter la commande ({error}).",
      "deviceControl.commandNotFound": "Commande introuvable.",
      "deviceControl.lowSalt":
        "Le sel s'épuise : {days, plural, one {environ # jour restant} many {environ # jours restants} other {environ # jours restants}}. Rechargez le bac à sel.",
      "deviceControl.saltEmpty": "Le bac à sel est vide. Rechargez-le en sel.",
      "deviceControl.noImage": "Aucune image signée de cette version du micrologiciel n'existe pour ce modèle.",
    },
  },
);

declare module "../../http/messages.ts" {
  /** This module's keys in the catalogue's key union (http/messages.ts {@link CatalogueKeys}). */
  interface CatalogueKeys extends Record<keyof (typeof deviceControlMessages)["en"], true> {}
}

// The HTTP layer translates this module's keys once the module is loaded (http/messages.ts registerMessages).
registerMessages(deviceControlMessages);
