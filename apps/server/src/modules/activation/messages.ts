import { catalogue } from "../../http/catalogue.ts";
import { registerMessages } from "../../http/messages.ts";

/** Texts of the activation module's app calls (setup tickets) in the five languages (spec §1); English is the source. */
export const activationMessages = catalogue(
  {
    "setupTicket.notFound": "Setup ticket not found.",
  },
  {
    "zh-Hans": {
      "setupTicket.notFound": "配网凭证不存在。",
    },
    es: {
      "setupTicket.notFound": "Vale de configuración no encontrado.",
    },
    ru: {
      "setupTicket.notFound": "Талон настройки не найден.",
    },
    fr: {
      "setupTicket.notFound": "Ticket de configuration introuvable.",
    },
  },
);

declare module "../../http/messages.ts" {
  /** This module's keys in the catalogue's key union (http/messages.ts {@link CatalogueKeys}). */
  interface CatalogueKeys extends Record<keyof (typeof activationMessages)["en"], true> {}
}

// The HTTP layer translates this module's keys once the module is loaded (http/messages.ts registerMessages).
registerMessages(activationMessages);
