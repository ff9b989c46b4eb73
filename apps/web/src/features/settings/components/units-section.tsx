import { HARDNESS_UNITS, type TUnitPreferences, VOLUME_UNITS } from "@aquapilot/contract/wire";
import { List } from "antd-mobile";
import { CalculatorOutline } from "antd-mobile-icons";
import { useTranslation } from "react-i18next";
import { errorMessage } from "../../../shared/api/errors.ts";
import { ListItem } from "../../../shared/ui/list-item.tsx";
import { SegmentedChoice } from "../../../shared/ui/segmented-choice.tsx";
import { Toast } from "../../../shared/ui/toast.ts";
import { useUnitPreferences } from "../../../shared/units/api/get-unit-preferences.ts";
import { useSetUnitPreferences } from "../../../shared/units/api/set-unit-preferences.ts";

/**
 * Setting → Units: the owner's volume unit (litres or US gallons) and water hardness unit
 * (mg/L CaCO₃, °dH, °fH or gpg), kept per user on the server and used by DeviceSetting for display and input.
 * A choice shows at once; a refusal puts the previous one back and shows the server's message.
 */
export function UnitsSection() {
  const { t } = useTranslation();
  const units = useUnitPreferences();
  const change = useSetUnitPreferences();

  const choose = (next: Partial<TUnitPreferences>) => {
    change.mutate(next, {
      onSuccess: () => Toast.show({ icon: "success", content: t("units.saved") }),
      onError: (err) => Toast.show({ icon: "fail", content: errorMessage(err, String(err)) }),
    });
  };

  return (
    <>
      <div className="settings__title">
        <CalculatorOutline /> {t("units.title")}
      </div>
      <List className="card-list settings-units" mode="card">
        <ListItem
          description={t(`units.names.${units.volumeUnit}`)}
          title={t("units.volume")}
          data-testid="setting-units-volume"
          data-value={units.volumeUnit}
        >
          <SegmentedChoice
            label={t("units.volume")}
            value={units.volumeUnit}
            disabled={!units.ready}
            options={VOLUME_UNITS.map((u) => ({
              value: u,
              label: t(`units.short.${u}`),
              testId: `setting-units-volume-${u}`,
            }))}
            onChange={(v) => choose({ volumeUnit: v })}
          />
        </ListItem>
        <ListItem
          description={t(`units.names.${units.hardnessUnit}`)}
          title={t("units.hardness")}
          data-testid="setting-units-hardness"
          data-value={units.hardnessUnit}
        >
          <SegmentedChoice
            label={t("units.hardness")}
            value={units.hardnessUnit}
            disabled={!units.ready}
            options={HARDNESS_UNITS.map((u) => ({
              value: u,
              label: t(`units.short.${u}`),
              testId: `setting-units-hardness-${u}`,
            }))}
            onChange={(v) => choose({ hardnessUnit: v })}
          />
        </ListItem>
      </List>
      <p className="settings-units__hint">{t("units.hint")}</p>
    </>
  );
}
