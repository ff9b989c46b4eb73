import { CheckCircleFill } from "antd-mobile-icons";
import { useId } from "react";
import { useTranslation } from "react-i18next";
import { DeviceImage } from "../../../shared/ui/device-image.tsx";
import type { ChoosableDevice } from "../api/get-my-devices.ts";

/**
 * The device choice of AfterSaleCreate: one card per device of the caller's households (name, household, online
 * state), the chosen one ticked. Each card is a label around a native radio button that covers it unseen, so the
 * cards are a radio group named "Device" for screen readers, one tab stop whose choice the arrow keys move, and a tap
 * anywhere on a card chooses it. Test ids: `after-sale-device` (data-device-id, data-selected).
 */
export function DeviceChoice(props: {
  devices: readonly ChoosableDevice[];
  value: string | null;
  onChange: (deviceId: string) => void;
}) {
  const { t } = useTranslation();
  const name = useId();
  return (
    <div className="device-choice" role="radiogroup" aria-label={t("afterSale.device")}>
      {props.devices.map(({ device, familyName }) => {
        const selected = device.id === props.value;
        return (
          <label
            key={device.id}
            className={`device-choice__item ${selected ? "device-choice__item--selected" : ""}`}
            data-testid="after-sale-device"
            data-device-id={device.id}
            data-selected={selected}
          >
            <input
              type="radio"
              className="device-choice__input covering-input"
              name={name}
              checked={selected}
              onChange={() => props.onChange(device.id)}
            />
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
          </label>
        );
      })}
    </div>
  );
}
