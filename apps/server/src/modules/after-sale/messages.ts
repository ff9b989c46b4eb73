import { catalogue } from "../../http/catalogue.ts";
import { registerMessages } from "../../http/messages.ts";

/** Texts of the after-sale module in the five languages (spec §1); English is the source. */
export const afterSaleMessages = catalogue(
  {
    "afterSale.notFound": "After-sales request not found.",
    "afterSale.handled":
      "This after-sales request has already been handled by the service team and can no longer be changed or withdrawn.",
  },
  {
    "zh-Hans": {
      "afterSale.notFound": "售后申请不存在。",
      "afterSale.handled": "该售后申请已由服务团队处理，不能再修改或撤回。",
    },
    es: {
      "afterSale.notFound": "Solicitud de posventa no encontrada.",
      "afterSale.handled":
        "El servicio técnico ya ha atendido esta solicitud de posventa; ya no se puede modificar ni retirar.",
    },
    ru: {
      "afterSale.notFound": "Заявка на сервисное обслуживание не найдена.",
      "afterSale.handled": "Сервисная служба уже обработала эту заявку, её нельзя изменить или отозвать.",
    },
    fr: {
      "afterSale.notFound": "Demande de service après-vente introuvable.",
      "afterSale.handled":
        "Cette demande de service après-vente a déjà été traitée par l'équipe de service et ne peut plus être modifiée ni retirée.",
    },
  },
);

declare module "../../http/messages.ts" {
  /** This module's keys in the catalogue's key union (http/messages.ts {@link CatalogueKeys}). */
  interface CatalogueKeys extends Record<keyof (typeof afterSaleMessages)["en"], true> {}
}

// The HTTP layer translates this module's keys once the module is loaded (http/messages.ts registerMessages).
registerMessages(afterSaleMessages);
