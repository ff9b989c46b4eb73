import { useQueryClient } from "@tanstack/react-query";
import { Button } from "antd-mobile";
import { useEffect, useState } from "react";
import { useTranslation } from "react-i18next";
import { errorMessage } from "../../../shared/api/errors.ts";
import { deviceKeys } from "../../../shared/device/api/keys.ts";
import { resetSaltLevel } from "../../../shared/device/api/reset-salt-level.ts";
import { TextField, toast } from "../../../shared/ui/index.ts";
import { Dialog } from "../../../shared/ui/popup.tsx";
import { defaultRefillKg, parseRefillKg } from "../logic/salt-refill.ts";

/**
 * The "Salt refilled" dialog: the level in the brine tank now, kg (default the tank size when
 * known, else 25), sent to reset-salt-level; on success the salt status is stored and read again and the dialog
 * closes. "Cancel" closes it without a change; the caller registers its back entry (the salt card, which loads this
 * dialog's code on the first tap: a back pressed while it loads closes it too). Rendered into `document.body`, centred
 * in the viewport.
 */
export function SaltRefillDialog(props: {
  deviceId: string;
  visible: boolean;
  tankSizeKg?: number | null;
  onClose: () => void;
}) {
  const { deviceId, visible, tankSizeKg, onClose } = props;
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  const [text, setText] = useState(() => String(defaultRefillKg(tankSizeKg)));
  const [saving, setSaving] = useState(false);
  useEffect(() => {
    if (visible) setText(String(defaultRefillKg(tankSizeKg)));
  }, [visible, tankSizeKg]);
  const levelKg = parseRefillKg(text);

  const save = async () => {
    if (levelKg === null || saving) return;
    setSaving(true);
    try {
      const status = await resetSaltLevel(deviceId, levelKg);
      queryClient.setQueryData(deviceKeys.salt(deviceId), status);
      void queryClient.invalidateQueries({ queryKey: deviceKeys.salt(deviceId) });
      toast(t("deviceSalt.saved"));
      onClose();
    } catch (err) {
      toast(errorMessage(err, t("deviceSalt.failed")));
    } finally {
      setSaving(false);
    }
  };

  return (
    <Dialog
      visible={visible}
      // Above everything wherever the page is scrolled: antd-mobile renders a Dialog in place by default, inside the
      // page's scrolled and transformed container, where it can land below the fold with the page's scroll locked.
      getContainer={() => document.body}
      destroyOnClose
      title={t("deviceSalt.title")}
      closeOnMaskClick
      onClose={onClose}
      content={
        <div className="device-salt-refill" data-testid="device-salt-refill-dialog">
          <TextField
            label={t("deviceSalt.level")}
            value={text}
            onChange={setText}
            inputMode="decimal"
            suffix={<span>kg</span>}
            testId="device-salt-refill-kg"
            aria-invalid={levelKg === null}
          />
          {levelKg === null ? (
            <div className="device-salt-refill__error" data-testid="device-salt-refill-invalid">
              {t("deviceSalt.invalid")}
            </div>
          ) : null}
          <div className="device-salt-refill__actions">
            <Button fill="outline" shape="rounded" onClick={onClose} data-testid="device-salt-refill-cancel">
              {t("common.cancel")}
            </Button>
            <Button
              color="primary"
              shape="rounded"
              loading={saving}
              disabled={levelKg === null}
              onClick={() => void save()}
              data-testid="device-salt-refill-save"
            >
              {t("deviceSalt.save")}
            </Button>
          </div>
        </div>
      }
    />
  );
}
