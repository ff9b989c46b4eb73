import { registerPlugin } from "@capacitor/core";
import type { AquaWifiPlugin } from "./definitions.ts";
import { AquaWifiWeb } from "./web.ts";

export type { AquaWifiPlugin } from "./definitions.ts";

/** The AquaWifi plugin (see {@link AquaWifiPlugin}): native on Android/iOS, {@link AquaWifiWeb} in a browser. */
export const AquaWifi = registerPlugin<AquaWifiPlugin>("AquaWifi", { web: () => new AquaWifiWeb() });
