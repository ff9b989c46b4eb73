import { catalogue } from "../../http/catalogue.ts";
import { registerMessages } from "../../http/messages.ts";

/**
 * Texts of the devices module in the five languages (spec §1); English is the source.
 * "device.wrongConfiguration" is the spec §5 text verbatim.
 */
export const deviceMessages = catalogue(
  {
    "device.wrongConfiguration": "Please enter the correct configuration",
    "device.pairingInvalid": "The pairing code is not valid for any device.",
    "device.pairingRequired": "Enter the device's pairing code.",
    "device.boundElsewhere":
      "This device already belongs to another household. Reset it and add it again to move it to this household.",
    "device.sortMismatch": "The order must list every device of this household exactly once.",
    "device.modelRequired": "Give a device model or a device.",
    "device.callbackSecret": "This integration call is not authorised.",
    "device.noPermission": "You do not have permission to do this.",
  },
  {
    "zh-Hans": {
      "device.wrongConfiguration": "请输入正确的配置",
      "device.pairingInvalid": "配对码无效，找不到对应的设备。",
      "device.pairingRequired": "请输入设备的配对码。",
      "device.boundElsewhere": "该设备已属于另一个家庭。请先重置设备，再重新添加以将其移到本家庭。",
      "device.sortMismatch": "排序必须恰好包含本家庭的每台设备各一次。",
      "device.modelRequired": "请提供设备型号或设备。",
      "device.callbackSecret": "此集成调用未获授权。",
      "device.noPermission": "您没有执行此操作的权限。",
    },
    es: {
      "device.wrongConfiguration": "Introduzca la configuración correcta",
      "device.pairingInvalid": "El código de emparejamiento no corresponde a ningún dispositivo.",
      "device.pairingRequired": "Introduzca el código de emparejamiento del dispositivo.",
      "device.boundElsewhere":
        "Este dispositivo ya pertenece a otro hogar. Restablézcalo y vuelva a añadirlo para moverlo a este hogar.",
      "device.sortMismatch": "El orden debe incluir cada dispositivo de este hogar exactamente una vez.",
      "device.modelRequired": "Indique un modelo de dispositivo o un dispositivo.",
      "device.callbackSecret": "Esta llamada de integración no está autorizada.",
      "device.noPermission": "No tiene permiso para hacer esto.",
    },
    ru: {
      "device.wrongConfiguration": "Введите правильную конфигурацию",
      "device.pairingInvalid": "Код сопряжения не подходит ни к одному устройству.",
      "device.pairingRequired": "Введите код сопряжения устройства.",
      "device.boundElsewhere":
        "Это устройство уже принадлежит другому дому. Сбросьте его и добавьте снова, чтобы перенести в этот дом.",
      "device.sortMismatch": "Порядок должен содержать каждое устройство этого дома ровно один раз.",
      "device.modelRequired": "Укажите модель устройства или устройство.",
      "device.callbackSecret": "Этот интеграционный вызов не авторизован.",
      "device.noPermission": "У вас нет прав на это действие.",
    },
    fr: {
      "device.wrongConfiguration": "Veuillez saisir la configuration correcte",
      "device.pairingInvalid": "Le code d'appairage ne correspond à aucun appareil.",
      "device.pairingRequired": "Saisissez le code d'appairage de l'appareil.",
      "device.boundElsewhere":
        "Cet appareil appartient déjà à un autre foyer. Réinitialisez-le et ajoutez-le à nouveau pour le déplacer ici.",
      "device.sortMismatch": "L'ordre doit contenir chaque appareil de ce foyer exactement une fois.",
      "device.modelRequired": "Indiquez un modèle d'appareil ou un appareil.",
      "device.callbackSecret": "Cet appel d'intégration n'est pas autorisé.",
      "device.noPermission": "Vous n'avez pas l'autorisation de faire cela.",
    },
  },
);

declare module "../../http/messages.ts" {
  /** This module's keys in the catalogue's key union (http/messages.ts {@link CatalogueKeys}). */
  interface CatalogueKeys extends Record<keyof (typeof deviceMessages)["en"], true> {}
}

// The HTTP layer translates this module's keys once the module is loaded (http/messages.ts registerMessages).
registerMessages(deviceMessages);
