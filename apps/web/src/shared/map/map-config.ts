import { getAppConfig } from "../api/app-config.ts";
import type { MapKeys } from "./providers.ts";

/** The map service configuration: type code (1 AMap, 2 Baidu, 3 Tencent, other Tianditu) and vendor keys. */
export interface MapConfig {
  mapType: number;
  mapKeys: MapKeys;
}

/** Used when the configuration cannot be loaded: Tianditu (the server's default type) without keys. */
export const DEFAULT_MAP_CONFIG: MapConfig = { mapType: 4, mapKeys: {} };

let configPromise: Promise<MapConfig> | null = null;

/**
 * The map service configuration from `GET app-config-setting/` (spec §7; its one fetcher, shared/api/app-config.ts),
 * loaded once per session; empty keys become null. Never throws: a failure gives {@link DEFAULT_MAP_CONFIG} (and is
 * retried next time). The map dialog mounts in a root of its own, outside the app's query client, hence the session
 * promise instead of the app-config query.
 */
export function loadMapConfig(): Promise<MapConfig> {
  configPromise ??= getAppConfig()
    .then((config) => ({
      mapType: config.mapType,
      mapKeys: {
        amap: config.mapKeys.amap || null,
        baidu: config.mapKeys.baidu || null,
        tencent: config.mapKeys.tencent || null,
        tianditu: config.mapKeys.tianditu || null,
      },
    }))
    .catch((err: unknown) => {
      console.warn("[map] app-config-setting failed; using the default map without keys", err);
      configPromise = null;
      return DEFAULT_MAP_CONFIG;
    });
  return configPromise;
}
