import { useTranslation } from "react-i18next";
import { useRouteParams } from "../../../shared/navigation/index.ts";
import { PageShell } from "../../../shared/ui/index.ts";
import { CodeStep } from "../components/code-step.tsx";
import { GuideStep } from "../components/guide-step.tsx";
import { ModeStep } from "../components/mode-step.tsx";
import { PermissionsStep } from "../components/permissions-step.tsx";
import { ProgressStep } from "../components/progress-step.tsx";
import { useSetupFamily } from "../components/setup-context.ts";
import { WifiStep } from "../components/wifi-step.tsx";
import { type DeviceNetworkParams, resolveStep } from "../params.ts";
import "../network-setup.css";

/**
 * DeviceNetwork (spec §2 /DeviceNetwork): adding a device, from the box onto the owner's Wi-Fi. Each step
 * is a navigation of its own (params `{familyId, step, mode, run?, code?}` as JSON, spec §2), so the system back
 * button walks the steps and a reload on any step works: "mode" (household, New version / Old version / "I have a
 * pairing code"), "code" (binding by pairing code), "guide" (setup mode: power cycle, button until the
 * beep, wait 5 s), "permissions" (location and Bluetooth), "wifi" (network, name and password, Connect to Wi-Fi),
 * "progress" (the running setup; after a reload, "interrupted"). Every step ends on DeviceNetworkNameUpdate.
 * Reached from Home "add device" (and NoFamily after creating a household). Test ids: `device-network-screen`
 * (data-step) and those of each step component.
 */
export function DeviceNetworkScreen() {
  const { t } = useTranslation();
  const params = useRouteParams<DeviceNetworkParams>();
  const step = resolveStep(params);
  const setup = useSetupFamily(params.familyId);
  const familyId = setup.family?.id ?? null;
  const withFamily = { ...params, familyId: familyId ?? params.familyId };

  return (
    <PageShell
      title={t(`networkSetup.titles.${step}`)}
      testId="device-network-screen"
      className="ns-page"
      tone={step === "code" || step === "wifi" ? "white" : "grey"}
    >
      <div className="ns-body" data-step={step}>
        {step === "mode" ? (
          <ModeStep params={withFamily} family={setup.family} families={setup.list} pending={setup.pending} />
        ) : null}
        {step === "code" ? <CodeStep params={withFamily} family={setup.family} families={setup.list} /> : null}
        {step === "guide" ? <GuideStep params={withFamily} /> : null}
        {step === "permissions" ? <PermissionsStep params={withFamily} /> : null}
        {step === "wifi" ? <WifiStep params={withFamily} family={setup.family} /> : null}
        {step === "progress" ? <ProgressStep params={withFamily} /> : null}
      </div>
    </PageShell>
  );
}
