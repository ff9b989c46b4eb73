import { DotLoading } from "antd-mobile";
import { AddOutline, CloseOutline, ExclamationCircleFill } from "antd-mobile-icons";
import { useRef } from "react";
import { useTranslation } from "react-i18next";
import { openImagePreview } from "../../../shared/ui/index.ts";
import { MAX_PHOTOS, type PhotoItem } from "../rules.ts";

/**
 * The photos of a request: thumbnails (tap → the image preview with index counter of spec §2), a remove button each
 * and an add tile while fewer than 6. Test ids: `after-sale-photo` (data-status uploading | done | failed),
 * `after-sale-photo-remove`, `after-sale-photo-add`, `after-sale-photo-input` (the file input).
 */
export function PhotoGrid(props: {
  photos: readonly PhotoItem[];
  onAdd?: (files: File[]) => void;
  onRemove?: (key: string) => void;
  readOnly?: boolean;
}) {
  const { t } = useTranslation();
  const { photos, onAdd, onRemove, readOnly = false } = props;
  const input = useRef<HTMLInputElement>(null);
  const previews = photos.map((p) => p.preview);

  return (
    <div className="photo-grid" data-testid="after-sale-photos" data-count={photos.length}>
      {photos.map((p, i) => (
        <div
          key={p.key}
          className={`photo-grid__item photo-grid__item--${p.status}`}
          data-testid="after-sale-photo"
          data-status={p.status}
        >
          <button
            type="button"
            className="photo-grid__thumb"
            onClick={() => void openImagePreview(previews, i)}
            aria-label={t("afterSale.photoPreview", { index: i + 1 })}
          >
            <img src={p.preview} alt="" />
          </button>
          {p.status === "uploading" ? (
            <span className="photo-grid__state">
              <DotLoading color="white" />
            </span>
          ) : p.status === "failed" ? (
            <span className="photo-grid__state photo-grid__state--failed">
              <ExclamationCircleFill /> {t("afterSale.uploadFailedShort")}
            </span>
          ) : null}
          {readOnly ? null : (
            <button
              type="button"
              className="photo-grid__remove"
              onClick={() => onRemove?.(p.key)}
              aria-label={t("afterSale.photoRemove")}
              data-testid="after-sale-photo-remove"
            >
              <CloseOutline />
            </button>
          )}
        </div>
      ))}
      {!readOnly && photos.length < MAX_PHOTOS ? (
        <button
          type="button"
          className="photo-grid__add"
          onClick={() => input.current?.click()}
          data-testid="after-sale-photo-add"
        >
          <AddOutline />
          <span>
            {photos.length}/{MAX_PHOTOS}
          </span>
        </button>
      ) : null}
      {readOnly ? null : (
        <input
          ref={input}
          type="file"
          accept="image/jpeg,image/png,image/webp,image/*"
          multiple
          hidden
          data-testid="after-sale-photo-input"
          onChange={(e) => {
            const files = Array.from(e.target.files ?? []);
            e.target.value = "";
            if (files.length > 0) onAdd?.(files);
          }}
        />
      )}
    </div>
  );
}
