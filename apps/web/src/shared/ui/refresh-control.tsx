import { useRef, useState } from "react";
import { useTranslation } from "react-i18next";
import { announce } from "./live-region.ts";

/**
 * The pull-to-refresh gesture's equivalent for a keyboard and a screen reader (WCAG 2.1.1, 2.5.1): a "Refresh" button
 * at the top of the list, out of sight until it has the keyboard's focus (a screen reader reads it where it is). It
 * runs `onRefresh` — the gesture's own refresh — once at a time, says "Refreshing…" meanwhile, and announces
 * "Refreshed" when it resolves (a failure is the screen's own message). data-testid `refresh-control`.
 */
export function RefreshControl(props: { onRefresh: () => Promise<unknown> }) {
  const { t } = useTranslation();
  const [busy, setBusy] = useState(false);
  const running = useRef(false);
  const run = async () => {
    if (running.current) return;
    running.current = true;
    setBusy(true);
    announce(t("common.refreshing"), "status", true);
    try {
      await props.onRefresh();
      announce(t("common.refreshed"));
    } catch {
      announce("");
    } finally {
      running.current = false;
      setBusy(false);
    }
  };
  return (
    <button
      type="button"
      className="refresh-control"
      aria-disabled={busy}
      onClick={() => void run()}
      data-testid="refresh-control"
    >
      {busy ? t("common.refreshing") : t("common.refresh")}
    </button>
  );
}
