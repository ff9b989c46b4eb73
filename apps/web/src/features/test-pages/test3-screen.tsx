import { useEffect, useState } from "react";
import { useTranslation } from "react-i18next";
import {
  type LocationResult,
  onAddressSelectResult,
  openAddressSelect,
  takeAddressSelectResult,
} from "../../shared/map/index.ts";
import { navigateTo, PATHS } from "../../shared/navigation/index.ts";
import { openAlertPopup, openImagePreview } from "../../shared/ui/index.ts";
import { TestPageLayout } from "./test-page-layout.tsx";

/**
 * /Test3 (spec §2 Test pages): the bottom alert popup with and without its clear link, the image preview with its
 * index counter, and the AddressSelect dialog (and the /AddressSelect route, whose result comes back here).
 * Buttons: test-open-alert, -alert-plain, -image-preview, -address-select, -address-select-page; the route's result is
 * printed in `test-address-page-result`.
 */

const COLORS = ["#0093dd", "#22b573", "#ff9f1a", "#f04a4a", "#7a5cff"];

/** Offline preview images: numbered SVG panels as data URLs. */
export const PREVIEW_IMAGES = COLORS.map(
  (color, i) =>
    `data:image/svg+xml,${encodeURIComponent(
      `<svg xmlns="http://www.w3.org/2000/svg" width="600" height="400"><rect width="600" height="400" fill="${color}"/><text x="300" y="240" font-size="160" text-anchor="middle" fill="#fff" font-family="sans-serif">${i + 1}</text></svg>`,
    )}`,
);

const REQUEST_PAGE_ID = "Test3";

const brief = (l: LocationResult | null) => l && `${l.address} (${l.longitude.toFixed(6)},${l.latitude.toFixed(6)})`;

/** The /Test3 screen. */
export function Test3Screen() {
  const { t } = useTranslation();
  const [pageResult, setPageResult] = useState<string | null>(() => brief(takeAddressSelectResult(REQUEST_PAGE_ID)));
  useEffect(
    () =>
      onAddressSelectResult((id, location) => {
        if (id === REQUEST_PAGE_ID) setPageResult(brief(location));
      }),
    [],
  );
  return (
    <TestPageLayout
      n={3}
      groups={[
        {
          title: t("testPages.dialogs"),
          actions: [
            {
              id: "alert",
              label: t("testPages.alert"),
              run: () =>
                openAlertPopup({
                  title: t("testPages.alertTitle"),
                  content: t("testPages.alertContent"),
                  showClear: true,
                }),
            },
            {
              id: "alert-plain",
              label: t("testPages.alertPlain"),
              run: () => openAlertPopup({ title: t("testPages.alertTitle"), content: t("testPages.alertContent") }),
            },
            {
              id: "image-preview",
              label: t("testPages.imagePreview"),
              run: async () => {
                await openImagePreview(PREVIEW_IMAGES, 1);
                return "closed";
              },
            },
          ],
        },
        {
          title: t("testPages.map"),
          actions: [
            {
              id: "address-select",
              label: t("testPages.addressSelect"),
              run: async () => brief(await openAddressSelect()),
            },
            {
              id: "address-select-page",
              label: t("testPages.addressSelectPage"),
              run: async () => {
                navigateTo(PATHS.AddressSelect, null, { requestPageId: REQUEST_PAGE_ID });
                return "→ /AddressSelect";
              },
            },
          ],
        },
      ]}
    >
      {pageResult ? (
        <output className="test-page__result-value" data-testid="test-address-page-result">
          {pageResult}
        </output>
      ) : null}
    </TestPageLayout>
  );
}
