import { Button } from "antd-mobile";
import { useTranslation } from "react-i18next";
import { regionChildren } from "../../shared/map/index.ts";
import { navigateTo, PATHS } from "../../shared/navigation/index.ts";
import { openListPicker, openTimePicker, type PickerOption } from "../../shared/ui/index.ts";
import { TestPageLayout } from "./test-page-layout.tsx";

/**
 * /Test (spec §2 Test pages): the bottom-sheet list picker in its modes (single, multiple + clear, multi-level from a
 * local tree and from the server's region tree) and the minutes-and-seconds time picker.
 * Buttons: test-open-list-single, -list-multiple, -list-levels, -list-regions, -time-picker.
 */

const FRUITS = ["apple", "banana", "cherry", "grape", "lemon", "mango", "orange", "peach"] as const;

/** A three-level local tree (zone → building → room) loaded by parent id, with a short delay like a server. */
export async function loadLocalLevel(parentId: string | null): Promise<PickerOption[]> {
  await new Promise((r) => setTimeout(r, 150));
  if (parentId === null) return ["A", "B", "C"].map((z) => ({ value: z, label: `${z}` }));
  const depth = parentId.split("-").length;
  if (depth === 1) return [1, 2, 3, 4].map((b) => ({ value: `${parentId}-${b}`, label: `${parentId}-${b}` }));
  return [1, 2, 3, 4, 5].map((r) => ({
    value: `${parentId}-0${r}`,
    label: `${parentId}-0${r}`,
    isLeaf: true,
  }));
}

const labels = (list: PickerOption[] | null) => list?.map((o) => o.value).join(",");

/** The /Test screen. */
export function TestScreen() {
  const { t } = useTranslation();
  const fruits: PickerOption[] = FRUITS.map((f) => ({ value: f, label: t(`testPages.fruits.${f}`) }));
  return (
    <TestPageLayout
      n={1}
      groups={[
        {
          title: t("testPages.pickers"),
          actions: [
            {
              id: "list-single",
              label: t("testPages.listSingle"),
              run: async () => labels(await openListPicker({ options: fruits, testId: "list-picker" })),
            },
            {
              id: "list-multiple",
              label: t("testPages.listMultiple"),
              run: async () =>
                labels(await openListPicker({ options: fruits, multiple: true, clearable: true, value: ["banana"] })),
            },
            {
              id: "list-levels",
              label: t("testPages.listLevels"),
              run: async () => labels(await openListPicker({ levels: 3, loadChildren: loadLocalLevel })),
            },
            {
              id: "list-regions",
              label: t("testPages.listRegions"),
              run: async () => {
                const path = await openListPicker({
                  levels: 3,
                  clearable: true,
                  loadChildren: async (parentId) =>
                    (await regionChildren(parentId ? Number(parentId) : null)).map((r) => ({
                      value: String(r.id),
                      label: r.name,
                      isLeaf: !r.hasChildren,
                    })),
                });
                return path?.map((o) => o.label).join(" / ");
              },
            },
            {
              id: "time-picker",
              label: t("testPages.timePicker"),
              run: () => openTimePicker({ value: "00:01:30" }),
            },
          ],
        },
      ]}
    >
      <div className="test-page__nav">
        <Button fill="none" color="primary" data-testid="test-next" onClick={() => navigateTo(PATHS.Test2)}>
          {t("testPages.next")} →
        </Button>
      </div>
    </TestPageLayout>
  );
}
