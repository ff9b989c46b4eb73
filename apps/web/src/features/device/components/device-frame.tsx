import { Button } from "antd-mobile";
import { RightOutline } from "antd-mobile-icons";
import { useTranslation } from "react-i18next";
import { DeviceImage } from "../../../shared/ui/device-image.tsx";
import { PageShell } from "../../../shared/ui/index.ts";

/**
 * The Device screen while its device loads (spec §3; shown at once, so the app opens fast): the screen's frame as the
 * live screen lays it out — the hero with the drawn softener, the station card with its labels, the §4 controls with
 * their names, the salt card with the reminder's text — and a grey bar where each figure will be; no figure is
 * guessed ("—" where the live card shows "—" for an unknown value). Inert and `aria-busy`: nothing in it answers a
 * tap until the live screen replaces it. The build prerenders it into index.html in each language
 * (apps/web/src/first-paint/build/prerender-plugin.ts), and the boot script paints it on a signed-in start on /Device
 * (apps/web/src/first-paint/boot.js), so the screen's frame is on screen while the app's code loads. Test id:
 * `device-frame`.
 */
export function DeviceFrame() {
  const { t } = useTranslation();
  const controls = [
    "deviceControl.vacationEnter",
    "deviceControl.forcedRegeneration",
    "deviceControl.forcedFlushing",
  ] as const;
  return (
    <div className="device-frame" inert aria-busy="true" data-testid="device-frame">
      <section className="device-hero">
        <div className="device-hero__image">
          <DeviceImage image={null} />
        </div>
        <div className="device-hero__body">
          <div className="device-frame__bar device-frame__bar--name" />
          <div className="device-frame__bar device-frame__bar--short" />
        </div>
      </section>
      <section className="device-station device-station--offline">
        <div className="device-station__label">{t("device.station")}</div>
        <div className="device-station__value">—</div>
        <div className="device-metrics">
          <div className="device-metric">
            <div className="device-metric__label">{t("device.waterLeft")}</div>
            <div className="device-metric__value">—</div>
          </div>
          <div className="device-metric">
            <div className="device-metric__label">{t("device.flowNow")}</div>
            <div className="device-metric__value">—</div>
          </div>
        </div>
      </section>
      <section className="device-section">
        <h2 className="device-section__title">{t("deviceControl.title")}</h2>
        <div className="device-controls">
          {controls.map((key) => (
            <Button key={key}>{t(key)}</Button>
          ))}
          <button type="button" className="device-hold">
            <span className="device-hold__text">{t("deviceControl.forcedSwitch")}</span>
          </button>
          <Button>{t("deviceControl.firmwareUpdate")}</Button>
          <Button>{t("deviceControl.timeSync")}</Button>
        </div>
        <div className="device-controls__hint">{t("deviceControl.holdHint")}</div>
      </section>
      <section className="device-section salt-gauge">
        <div className="device-section__head">
          <h2 className="device-section__title">{t("saltGauge.title")}</h2>
        </div>
        <div className="device-frame__bar device-frame__bar--short" />
        <div className="salt-gauge__reminder">
          <span className="salt-gauge__reminder-text">
            <span className="salt-gauge__reminder-title">{t("saltGauge.reminder")}</span>
            <span className="salt-gauge__reminder-hint">{t("saltGauge.reminderHint")}</span>
          </span>
          <RightOutline className="salt-gauge__reminder-arrow" />
        </div>
      </section>
    </div>
  );
}

/**
 * The Device screen as it shows while its device loads: the page with `title` (the device's name when the household's
 * list already names it, else "Device") over {@link DeviceFrame}. The build prerenders exactly this, titled
 * "Device", in each language (apps/web/src/first-paint/prerender.tsx `renderDeviceFrame`). Test id: `device-screen`, as the live screen.
 */
export function DeviceFrameScreen({ title }: { title: string }) {
  return (
    <PageShell title={title} testId="device-screen">
      <DeviceFrame />
    </PageShell>
  );
}
