/**
 * Every module's part of the server's message catalogue, loaded (each registers itself with http/messages.ts when
 * loaded) — for tests that translate a module's keys without building the app. messages.test.ts checks that
 * this list names every `src/modules/<module>/messages.ts`, and that the app registers the same parts.
 */
import { accountMessages } from "../src/modules/account/messages.ts";
import { activationMessages } from "../src/modules/activation/messages.ts";
import { afterSaleMessages } from "../src/modules/after-sale/messages.ts";
import { articleMessages } from "../src/modules/article/messages.ts";
import { deviceControlMessages } from "../src/modules/device-control/messages.ts";
import { deviceMessages } from "../src/modules/devices/messages.ts";
import { familyMessages } from "../src/modules/family/messages.ts";
import { faultMessages } from "../src/modules/fault/messages.ts";
import { filesMessages } from "../src/modules/files/messages.ts";
import { firmwareMessages } from "../src/modules/firmware/messages.ts";
import { messageMessages } from "../src/modules/message/messages.ts";
import { pushMessages } from "../src/modules/push/messages.ts";
import { statisticsMessages } from "../src/modules/statistics/messages.ts";

/** The parts by module folder name. */
export const MODULE_CATALOGUES = {
  account: accountMessages,
  activation: activationMessages,
  "after-sale": afterSaleMessages,
  article: articleMessages,
  "device-control": deviceControlMessages,
  devices: deviceMessages,
  family: familyMessages,
  fault: faultMessages,
  files: filesMessages,
  firmware: firmwareMessages,
  message: messageMessages,
  push: pushMessages,
  statistics: statisticsMessages,
} as const;
