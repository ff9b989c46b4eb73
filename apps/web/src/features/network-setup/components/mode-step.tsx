import type { TFamily } from "@aquapilot/contract/wire";
import { Button } from "antd-mobile";
import {
  ExclamationCircleFill,
  QuestionCircleOutline,
  RightOutline,
  ScanningOutline,
  TeamOutline,
} from "antd-mobile-icons";
import type { ReactNode } from "react";
import { useTranslation } from "react-i18next";
import { navigateTo, PATHS } from "../../../shared/navigation/index.ts";
import { openListPicker } from "../../../shared/ui/index.ts";
import type { DeviceNetworkParams } from "../params.ts";
import { alertDialog } from "./alert-dialog.tsx";
import { BluetoothIcon, WifiIcon } from "./icons.tsx";
import { goToStep, useWifiBridge } from "./setup-context.ts";

/** Props of {@link ModeStep}. */
export interface ModeStepProps {
  params: Partial<DeviceNetworkParams>;
  family: TFamily | null;
  families: TFamily[];
  pending: boolean;
}

function Choice(props: {
  icon: ReactNode;
  title: string;
  hint: string;
  note?: string | null;
  disabled: boolean;
  onClick: () => void;
  testId: string;
}) {
  return (
    <button
      type="button"
      className="ns-choice"
      disabled={props.disabled}
      onClick={props.onClick}
      data-testid={props.testId}
    >
      <span className="ns-choice__icon">{props.icon}</span>
      <span className="ns-choice__text">
        <span className="ns-choice__title">{props.title}</span>
        <span className="ns-choice__hint">{props.hint}</span>
        {props.note ? (
          <span className="ns-choice__note" data-testid={`${props.testId}-note`}>
            {props.note}
          </span>
        ) : null}
      </span>
      <RightOutline className="ns-choice__arrow" />
    </button>
  );
}

/**
 * The first step of /DeviceNetwork (spec §2 "Two modes"): the household the device goes to (the home family by
 * default, switchable), a notice before anything else when the caller is not its administrator (spec §6), and the
 * three ways: New version (Bluetooth), Old version (access point; without a native or development bridge it explains
 * that the app is needed) and "I have a pairing code". Test ids: `network-setup-family`,
 * `network-setup-admin-only`, `network-setup-no-family`, `network-setup-mode-ble`, `network-setup-mode-ap`
 * (`…-note` when it needs the app), `network-setup-mode-code`, `network-setup-help`.
 */
export function ModeStep({ params, family, families, pending }: ModeStepProps) {
  const { t } = useTranslation();
  const bridge = useWifiBridge();
  const isAdmin = family?.isAdmin === true;
  const disabled = !family || !isAdmin;
  const apNeedsApp = bridge?.kind === "none";

  const chooseFamily = async () => {
    if (families.length === 0) return;
    const chosen = await openListPicker({
      title: t("networkSetup.mode.chooseFamily"),
      searchable: families.length > 6,
      value: family ? [family.id] : [],
      options: families.map((f) => ({ value: f.id, label: f.name })),
      testId: "network-setup-family-picker",
    });
    const id = chosen?.[0]?.value;
    if (id && id !== family?.id) goToStep({ ...params, familyId: id }, "mode", {}, { replace: true });
  };

  const chooseAp = () => {
    if (apNeedsApp) {
      void alertDialog({
        title: t("networkSetup.mode.needsAppTitle"),
        content: t("networkSetup.mode.needsAppText"),
        testId: "network-setup-needs-app-dialog",
      });
      return;
    }
    goToStep({ familyId: family?.id }, "guide", { mode: "ap" });
  };

  return (
    <div className="ns-step" data-testid="network-setup-mode">
      <p className="ns-lead">{t("networkSetup.mode.intro")}</p>
      <button
        type="button"
        className="ns-family"
        onClick={() => void chooseFamily()}
        disabled={families.length === 0}
        data-testid="network-setup-family"
        data-family-id={family?.id ?? ""}
      >
        <TeamOutline className="ns-family__icon" />
        <span className="ns-family__label">{t("networkSetup.mode.family")}</span>
        <span className="ns-family__value">{family?.name ?? (pending ? "…" : t("networkSetup.mode.noFamily"))}</span>
        {families.length > 1 ? <RightOutline className="ns-family__arrow" /> : null}
      </button>
      {!pending && !family ? (
        <div className="ns-banner ns-banner--warn" data-testid="network-setup-no-family">
          <ExclamationCircleFill />
          <div>
            <div>{t("networkSetup.mode.noFamily")}</div>
            <Button
              size="small"
              color="primary"
              fill="outline"
              shape="rounded"
              className="ns-banner__action"
              onClick={() => navigateTo(PATHS.FamilyCreate)}
            >
              {t("networkSetup.mode.createFamily")}
            </Button>
          </div>
        </div>
      ) : null}
      {family && !isAdmin ? (
        <div className="ns-banner ns-banner--warn" data-testid="network-setup-admin-only">
          <ExclamationCircleFill />
          <div>{t("networkSetup.mode.adminOnly")}</div>
        </div>
      ) : null}
      <div className="ns-choices">
        <Choice
          icon={<BluetoothIcon />}
          title={t("networkSetup.mode.newVersion")}
          hint={t("networkSetup.mode.newVersionHint")}
          disabled={disabled}
          onClick={() => goToStep({ familyId: family?.id }, "guide", { mode: "ble" })}
          testId="network-setup-mode-ble"
        />
        <Choice
          icon={<WifiIcon />}
          title={t("networkSetup.mode.oldVersion")}
          hint={t("networkSetup.mode.oldVersionHint")}
          note={apNeedsApp ? t("networkSetup.mode.needsApp") : null}
          disabled={disabled}
          onClick={chooseAp}
          testId="network-setup-mode-ap"
        />
        <Choice
          icon={<ScanningOutline />}
          title={t("networkSetup.mode.code")}
          hint={t("networkSetup.mode.codeHint")}
          disabled={disabled}
          onClick={() => goToStep({ familyId: family?.id }, "code")}
          testId="network-setup-mode-code"
        />
      </div>
      <button
        type="button"
        className="ns-link"
        onClick={() => navigateTo(PATHS.Article, { id: "add-device" })}
        data-testid="network-setup-help"
      >
        <QuestionCircleOutline /> {t("networkSetup.mode.help")}
      </button>
    </div>
  );
}
