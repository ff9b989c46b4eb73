import { goBack, useRouteParams } from "../navigation/index.ts";
import { AddressSelect } from "./address-select.tsx";
import { type AddressSelectParams, publishAddressSelectResult } from "./index.ts";

/**
 * The /AddressSelect route (spec §2 Household): the AddressSelect screen as a page. Params (JSON `params`):
 * {@link AddressSelectParams}; the confirmed location goes back to the caller through
 * `takeAddressSelectResult(requestPageId)` / `onAddressSelectResult`, then the page goes back.
 */
export function AddressSelectScreen() {
  const params = useRouteParams<AddressSelectParams>();
  const initial =
    typeof params.longitude === "number" && typeof params.latitude === "number"
      ? { longitude: params.longitude, latitude: params.latitude }
      : undefined;
  return (
    <AddressSelect
      mode="page"
      initial={initial}
      onCancel={goBack}
      onConfirm={(location) => {
        publishAddressSelectResult(params.requestPageId, location);
        goBack();
      }}
    />
  );
}
