import { Button } from "antd-mobile";
import { InformationCircleOutline } from "antd-mobile-icons";
import { useEffect, useState } from "react";
import { useTranslation } from "react-i18next";
import type { DeviceNetworkParams } from "../params.ts";
import { goToStep } from "./setup-context.ts";

/** Seconds to wait after the beep before Next (spec §9 "wait 5 s after beep"). */
export const BEEP_WAIT_SECONDS = 5;

/**
 * The step page of spec §2: power the device off and on, press and hold the button until a beep, wait 5 seconds,
 * Next — Next becomes active after 5 s (a countdown on the button) — with the note to keep phone, router and device
 * close together, and what the device does now in the chosen mode. Test ids: `network-setup-guide`,
 * `network-setup-next` (disabled while counting, `data-seconds` left).
 */
export function GuideStep({ params }: { params: Partial<DeviceNetworkParams> }) {
  const { t } = useTranslation();
  const [left, setLeft] = useState(BEEP_WAIT_SECONDS);
  useEffect(() => {
    const started = Date.now();
    const timer = setInterval(() => {
      const rest = Math.max(0, BEEP_WAIT_SECONDS - Math.floor((Date.now() - started) / 1000));
      setLeft(rest);
      if (rest === 0) clearInterval(timer);
    }, 250);
    return () => clearInterval(timer);
  }, []);
  const steps = [t("networkSetup.guide.step1"), t("networkSetup.guide.step2"), t("networkSetup.guide.step3")];
  return (
    <div className="ns-step" data-testid="network-setup-guide" data-mode={params.mode}>
      <h2 className="ns-heading">{t("networkSetup.guide.title")}</h2>
      <ol className="ns-guide">
        {steps.map((text, i) => (
          <li key={text} className="ns-guide__item">
            <span className="ns-guide__num">{i + 1}</span>
            <span className="ns-guide__text">{text}</span>
          </li>
        ))}
      </ol>
      <p className="ns-note">
        {params.mode === "ap" ? t("networkSetup.guide.apNote") : t("networkSetup.guide.bleNote")}
      </p>
      <div className="ns-banner ns-banner--info" data-testid="network-setup-close-together">
        <InformationCircleOutline />
        <div>{t("networkSetup.guide.closeTogether")}</div>
      </div>
      <div className="ns-actions">
        <Button
          block
          color="primary"
          shape="rounded"
          size="large"
          disabled={left > 0}
          onClick={() => goToStep(params, "permissions")}
          data-testid="network-setup-next"
          data-seconds={left}
        >
          {left > 0 ? t("networkSetup.guide.nextIn", { seconds: left }) : t("networkSetup.guide.next")}
        </Button>
      </div>
    </div>
  );
}
