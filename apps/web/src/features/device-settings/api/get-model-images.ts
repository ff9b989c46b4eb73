import { endpoints } from "@aquapilot/contract/wire";
import { queryOptions, useQuery } from "@tanstack/react-query";
import { api } from "../../../shared/api/client.ts";
import type { QueryConfig } from "../../../shared/api/query-config.ts";
import { deviceSettingsKeys } from "./keys.ts";

/**
 * The product images of a device's model (relative paths; show them through `imageUrl`): `GET
 * /api/run-lucky/device/app/device-model/get-images-by-device-mac?mac=` (spec §7), with the model's main image
 * (`get-main-image-by-device-mac`) first when it is not in the list already. A failure of the main image is ignored.
 * Errors: ApiError from the client (the list).
 */
export async function getModelImages(mac: string, signal?: AbortSignal): Promise<string[]> {
  const [images, main] = await Promise.all([
    api(endpoints.getImagesByDeviceMac, { query: { mac }, signal }),
    api(endpoints.getMainImageByDeviceMac, { query: { mac }, signal }).catch(() => null),
  ]);
  return main && !images.includes(main) ? [main, ...images] : images;
}

/** Query options of {@link getModelImages}; disabled without a MAC. */
export function getModelImagesQueryOptions(mac: string | null | undefined) {
  return queryOptions({
    queryKey: deviceSettingsKeys.modelImages(mac ?? ""),
    queryFn: ({ signal }) => getModelImages(mac ?? "", signal),
    enabled: Boolean(mac),
  });
}

/** The model's images as a query; `queryConfig` adds per-use options ({@link QueryConfig}). */
export function useModelImages(
  mac: string | null | undefined,
  queryConfig?: QueryConfig<typeof getModelImagesQueryOptions>,
) {
  return useQuery({ ...getModelImagesQueryOptions(mac), ...queryConfig });
}
