import { catalogue } from "../../http/catalogue.ts";
import { registerMessages } from "../../http/messages.ts";

/** Texts of the fault module in the five languages (spec §1); English is the source. */
export const faultMessages = catalogue(
  {
    "fault.notClosed": "The water is not closed, so there is nothing to reopen.",
    "fault.reopenOffline":
      "Device offline: the app cannot reopen the water now. Press the button on the valve to reopen it.",
  },
  {
    "zh-Hans": {
      "fault.notClosed": "水没有被关闭，无需恢复供水。",
      "fault.reopenOffline": "设备离线，App 暂时无法恢复供水。请按一下控制阀上的按键恢复供水。",
    },
    es: {
      "fault.notClosed": "El agua no está cerrada; no hay nada que volver a abrir.",
      "fault.reopenOffline":
        "Dispositivo sin conexión: la app no puede volver a abrir el agua ahora. Pulse el botón de la válvula para abrirla.",
    },
    ru: {
      "fault.notClosed": "Вода не перекрыта, открывать нечего.",
      "fault.reopenOffline":
        "Устройство не в сети: приложение сейчас не может открыть воду. Нажмите кнопку на клапане, чтобы открыть её.",
    },
    fr: {
      "fault.notClosed": "L'eau n'est pas coupée : il n'y a rien à rouvrir.",
      "fault.reopenOffline":
        "Appareil hors ligne : l'application ne peut pas rouvrir l'eau pour le moment. Appuyez sur le bouton de la vanne pour la rouvrir.",
    },
  },
);

declare module "../../http/messages.ts" {
  /** This module's keys in the catalogue's key union (http/messages.ts {@link CatalogueKeys}). */
  interface CatalogueKeys extends Record<keyof (typeof faultMessages)["en"], true> {}
}

// The HTTP layer translates this module's keys once the module is loaded (http/messages.ts registerMessages).
registerMessages(faultMessages);
