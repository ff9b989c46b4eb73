import { catalogue } from "../../http/catalogue.ts";
import { registerMessages } from "../../http/messages.ts";

type Key = "salt.reminderRange";

/**
 * Texts of the statistics module (salt) in the five languages (spec §1); English is the source. The reminder's range
 * is written out (1 to 30, contract SALT_REMINDER_DAYS): validationErrors are translated without parameters, and
 * salt.data.test.ts checks the numbers against the contract in every language.
 */
export const statisticsMessages = catalogue<Key>(
  {
    "salt.reminderRange": "Choose a reminder from 1 to 30 days (whole days).",
  },
  {
    "zh-Hans": {
      "salt.reminderRange": "请选择 1 到 30 天之间的提醒天数（整数天）。",
    },
    es: {
      "salt.reminderRange": "Elija un aviso de 1 a 30 días (días enteros).",
    },
    ru: {
      "salt.reminderRange": "Выберите напоминание от 1 до 30 дней (целое число дней).",
    },
    fr: {
      "salt.reminderRange": "Choisissez un rappel de 1 à 30 jours (jours entiers).",
    },
  },
);

declare module "../../http/messages.ts" {
  /** This module's keys in the catalogue's key union (http/messages.ts {@link CatalogueKeys}). */
  interface CatalogueKeys extends Record<keyof (typeof statisticsMessages)["en"], true> {}
}

// The HTTP layer translates this module's keys once the module is loaded (http/messages.ts registerMessages).
registerMessages(statisticsMessages);
