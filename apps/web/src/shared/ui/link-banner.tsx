import { useEffect } from "react";
import { createPortal } from "react-dom";
import { useTranslation } from "react-i18next";
import { formatMoment } from "../format/index.ts";
import type { PhoneLinkSnapshot } from "../realtime/phone-link.ts";

/**
 * The banner of a lost phone link (docs/architecture.md "What the phone shows"): while the link is offline or
 * reconnecting, a bar at the bottom of the screen says so in the user's language and since when the figures on screen
 * date ("No connection — figures from 14:02"), announced politely to screen readers. It also marks the document
 * (`html[data-link="lost"]`) so the screens' figures turn grey through CSS (their controls read the link themselves:
 * `usePhoneLink`). Draws only an empty live region while connected.
 */
export function LinkBanner({ link }: { link: PhoneLinkSnapshot }) {
  const { t, i18n } = useTranslation();
  const lost = link.state !== "connected";
  useEffect(() => {
    const root = document.documentElement;
    if (lost) root.dataset.link = "lost";
    else delete root.dataset.link;
  }, [lost]);
  let banner = null;
  if (lost && link.since !== null) {
    const time = formatMoment(new Date(link.since).toISOString(), i18n.language, { timeOnlyToday: true }) ?? "";
    const text = link.state === "offline" ? t("link.offline", { time }) : t("link.reconnecting", { time });
    banner = (
      <div className="link-banner" data-testid="link-banner" data-state={link.state} data-since={link.since}>
        <span className="link-banner__dot" aria-hidden="true" />
        <span>{text}</span>
      </div>
    );
  }
  // Beside the app's root, not in it: the live region is there from the start (so screen readers hear the banner
  // come), and the root stays exactly the screen drawn (a prerendered first screen is swapped for its live copy).
  return createPortal(
    <div className="link-banner-region" role="status" aria-live="polite">
      {banner}
    </div>,
    document.body,
  );
}
