import { catalogue } from "../../http/catalogue.ts";
import { registerMessages } from "../../http/messages.ts";

/** Texts of the push module in the five languages (spec §1); English is the source. */
export const pushMessages = catalogue(
  {
    "push.registrationTaken":
      "This phone's notifications are linked to another account. Sign out of that account on this phone first.",
    "push.subscriptionTaken":
      "This browser's notifications are linked to another account. Turn notifications off and on again in this browser.",
  },
  {
    "zh-Hans": {
      "push.registrationTaken": "此手机的消息推送已关联到其他账号。请先在此手机上退出该账号。",
      "push.subscriptionTaken": "此浏览器的消息推送已关联到其他账号。请在此浏览器中关闭后重新开启通知。",
    },
    es: {
      "push.registrationTaken":
        "Las notificaciones de este teléfono están vinculadas a otra cuenta. Primero cierre la sesión de esa cuenta en este teléfono.",
      "push.subscriptionTaken":
        "Las notificaciones de este navegador están vinculadas a otra cuenta. Desactive y vuelva a activar las notificaciones en este navegador.",
    },
    ru: {
      "push.registrationTaken":
        "Уведомления на этом телефоне привязаны к другой учётной записи. Сначала выйдите из неё на этом телефоне.",
      "push.subscriptionTaken":
        "Уведомления в этом браузере привязаны к другой учётной записи. Выключите и снова включите уведомления в этом браузере.",
    },
    fr: {
      "push.registrationTaken":
        "Les notifications de ce téléphone sont liées à un autre compte. Déconnectez d'abord ce compte sur ce téléphone.",
      "push.subscriptionTaken":
        "Les notifications de ce navigateur sont liées à un autre compte. Désactivez puis réactivez les notifications dans ce navigateur.",
    },
  },
);

declare module "../../http/messages.ts" {
  /** This module's keys in the catalogue's key union (http/messages.ts {@link CatalogueKeys}). */
  interface CatalogueKeys extends Record<keyof (typeof pushMessages)["en"], true> {}
}

// The HTTP layer translates this module's keys once the module is loaded (http/messages.ts registerMessages).
registerMessages(pushMessages);
