import type { FastifyPluginAsync } from "fastify";
import { authModule } from "../auth/routes.ts";
import { accountModule } from "./account/index.ts";
import { setupTicketsModule } from "./activation/index.ts";
import { afterSaleModule } from "./after-sale/index.ts";
import { appConfigModule } from "./app-config/index.ts";
import { articleModule } from "./article/index.ts";
import { deviceControlModule } from "./device-control/index.ts";
import { deviceModelModule } from "./device-model/index.ts";
import { devicesModule } from "./devices/index.ts";
import { familyModule } from "./family/index.ts";
import { familyDeviceModule } from "./family-device/index.ts";
import { familyUserModule } from "./family-user/index.ts";
import { faultModule } from "./fault/index.ts";
import { filesModule } from "./files/index.ts";
import { locationModule } from "./location/index.ts";
import { messageModule } from "./message/index.ts";
import { profileModule } from "./profile/index.ts";
import { pushModule } from "./push/index.ts";
import { statisticsModule } from "./statistics/index.ts";

/**
 * The modules of the app's API as Fastify plugins, in the order `buildApp` registers them after the core plugin and
 * device activation (docs/architecture.md "Server"; docs/adr/0034-modules-as-fastify-plugins.md). This list is the one
 * place that composes the modules. Each is a named plugin ("module-<folder>", made with fastify-plugin) that lists
 * the plugins whose decorations it reads in its `dependencies`: Fastify refuses to start when one of them is not
 * registered before it, so a module that uses another's decoration comes after that module here (push before message,
 * message before family-user). Device activation (`modules/activation`) is not listed: it takes the device link's
 * broker and accounts as options, and buildApp registers it just before these; its app calls (setup tickets) are.
 */
export const API_MODULES: readonly FastifyPluginAsync[] = [
  authModule,
  accountModule,
  profileModule,
  appConfigModule,
  familyModule,
  familyDeviceModule,
  pushModule,
  messageModule,
  familyUserModule,
  locationModule,
  deviceControlModule,
  statisticsModule,
  devicesModule,
  setupTicketsModule,
  deviceModelModule,
  afterSaleModule,
  articleModule,
  filesModule,
  faultModule,
];
