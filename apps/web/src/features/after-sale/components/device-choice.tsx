import { CheckCircleFill } from "antd-mobile-icons";
import { useTranslation } from "react-i18next";
import { DeviceImage } from "../../../shared/ui/device-image.tsx";
import type { ChoosableDevice } from "../api/get-my-devices.ts";

/**
 * The device choice of AfterSaleCreate: one card per device of the caller's households (name, household, online
 * state), the chosen one ticked. Test ids: `after-sale-device` (data-device-id, data-selected).
 */
export function DeviceChoice(props: {
  devices: readonly ChoosableDevice[];
  value: string | null;
  onChange: (deviceId: string) => void;
}) {
  const { t } = useTranslation();
  return (
    <div className="device-choice" role="radiogroup">
      {props.devices.map(({ device, familyName }) => {
        const selected = device.id === props.value;
        return (
          <button
            key={device.id}
            type="button"
            role="radio"
            aria-checked={selected}
            className={`device-choice__item ${selected ? "device-choice__item--selected" : ""}`}
            onClick={() => props.onChange(device.id)}
            data-testid="after-sale-device"
            data-device-id={device.id}
            data-selected={selected}
          >
            <span className="device-choice__image">
              <DeviceImage image={device.image} />
            </span>
            <span className="device-choice__body">
              <span className="device-choice__name">{device.name}</span>
              <span className="device-choice__meta">
                {familyName ? `${familyName} · ` : ""}
                {device.online ? t("home.online") : t("home.offline")}
              </span>
            </span>
            {selected ? <CheckCircleFill className="device-choice__tick" /> : <span className="device-choice__ring" />}
          </button>
        );
      })}
    </div>
  );
}
