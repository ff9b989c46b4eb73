import { Switch } from "antd-mobile";
import { useEffect, useState } from "react";
import { useTranslation } from "react-i18next";
import { errorMessage } from "../api/errors.ts";
import { useBackClose } from "../ui/overlay.tsx";
import { toast } from "../ui/toast.ts";
import { usePushSwitch } from "./api/get-push-switch.ts";
import { useSetPushSwitch } from "./api/set-push-switch.ts";
import { disableWebPush, enableWebPush, type WebPushState, webPushState } from "./web-push.ts";
import "./push-switch-sheet.css";
import { Popup } from "../ui/popup.tsx";

/**
 * "Push management" of the home tab (spec §2): a bottom sheet with the push switch, read with
 * `GET …/is_open_jpush__message/` and set with `POST …/is_open_jpush__message/?isOpen=` (spec §7); back closes it
 * first (spec §2). In a browser that can receive Web Push (the installed web app), a second switch turns
 * notifications on for this browser (permission, subscription). Test ids: `push-switch-sheet`, `push-switch`
 * (data-checked), `web-push-switch` (data-state). `backByCaller`: the caller registers the back entry itself (Home,
 * whose sheet code loads on the tap: its entry must exist before the code arrives).
 */
export function PushSwitchSheet({
  visible,
  onClose,
  backByCaller = false,
}: {
  visible: boolean;
  onClose: () => void;
  backByCaller?: boolean;
}) {
  const { t } = useTranslation();
  const current = usePushSwitch({ enabled: visible });
  const set = useSetPushSwitch();
  useBackClose(visible && !backByCaller, onClose);
  const checked = current.data ?? true;
  const [web, setWeb] = useState<WebPushState>("unsupported");
  const [webBusy, setWebBusy] = useState(false);
  useEffect(() => {
    if (visible) void webPushState().then(setWeb);
  }, [visible]);
  const changeWeb = async (on: boolean) => {
    setWebBusy(true);
    try {
      const next = on ? await enableWebPush() : await disableWebPush();
      setWeb(next);
      if (next === "denied") toast(t("message.push.browserDenied"));
    } catch (err) {
      toast(errorMessage(err, t("message.push.browserFailed")));
    } finally {
      setWebBusy(false);
    }
  };
  const change = (isOpen: boolean) =>
    set.mutate(isOpen, {
      onSuccess: (value) => toast(value ? t("message.push.on") : t("message.push.off")),
      onError: (err) => toast(errorMessage(err, t("errors.requestFailed"))),
    });
  return (
    <Popup visible={visible} onMaskClick={onClose} bodyClassName="push-sheet" destroyOnClose>
      <div data-testid="push-switch-sheet">
        <div className="push-sheet__title">{t("message.push.title")}</div>
        <div className="push-sheet__row">
          <span className="push-sheet__label">{t("message.push.label")}</span>
          <Switch
            checked={checked}
            loading={current.isPending || set.isPending}
            onChange={change}
            data-testid="push-switch"
            data-checked={checked}
          />
        </div>
        <p className="push-sheet__hint">{t("message.push.hint")}</p>
        {web === "unsupported" ? null : (
          <>
            <div className="push-sheet__row">
              <span className="push-sheet__label">{t("message.push.browser")}</span>
              <Switch
                checked={web === "on"}
                disabled={web === "denied"}
                loading={webBusy}
                onChange={(on) => void changeWeb(on)}
                data-testid="web-push-switch"
                data-state={web}
              />
            </div>
            <p className="push-sheet__hint">
              {web === "denied" ? t("message.push.browserDenied") : t("message.push.browserHint")}
            </p>
          </>
        )}
      </div>
    </Popup>
  );
}
