import { CheckCircleFill } from "antd-mobile-icons";
import { useTranslation } from "react-i18next";
import { useBackClose } from "../../../shared/ui/index.ts";
import { Popup } from "../../../shared/ui/popup.tsx";
import { PRESET_AVATARS } from "./family-avatar.tsx";

/**
 * A bottom popup with the preset household pictures; the current one is ticked (and pressed, for a screen reader).
 * Each picture is a button named "Picture N" in the user's language. Back closes it first (spec §2).
 */
export function AvatarPicker(props: {
  visible: boolean;
  current: string | null;
  onSelect: (avatar: string) => void;
  onClose: () => void;
}) {
  const { visible, current, onSelect, onClose } = props;
  const { t } = useTranslation();
  useBackClose(visible, onClose);
  return (
    <Popup visible={visible} onMaskClick={onClose} bodyClassName="sheet" destroyOnClose>
      <div className="sheet__title">{t("family.chooseAvatar")}</div>
      <div className="avatar-grid" data-testid="family-avatar-picker">
        {PRESET_AVATARS.map((src, i) => (
          <button
            key={src}
            type="button"
            className={`avatar-grid__item ${src === current ? "avatar-grid__item--on" : ""}`}
            aria-label={t("family.avatarOption", { number: i + 1 })}
            aria-pressed={src === current}
            onClick={() => onSelect(src)}
            data-testid={`family-avatar-option-${i + 1}`}
          >
            <img src={src} alt="" />
            {src === current ? <CheckCircleFill className="avatar-grid__tick" /> : null}
          </button>
        ))}
      </div>
      <button type="button" className="sheet__cancel" onClick={onClose}>
        {t("common.cancel")}
      </button>
    </Popup>
  );
}
