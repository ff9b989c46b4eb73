import { ImageViewer } from "antd-mobile";
import { mountOverlay, useBackClose } from "./overlay.tsx";
import "./pickers.css";

/** The image preview with index counter (spec §2), on antd-mobile's multi-image viewer ("2 / 5" at the top). */

/** Props of {@link ImagePreview}. */
export interface ImagePreviewProps {
  visible: boolean;
  images: readonly string[];
  /** Index shown first (0-based). */
  defaultIndex?: number;
  onIndexChange?: (index: number) => void;
  onClose: () => void;
}

/** The image preview (controlled by `visible`); a tap on the image or back closes it. Counter: `image-preview-counter`. */
export function ImagePreview(props: ImagePreviewProps) {
  const { visible, images, defaultIndex = 0, onIndexChange, onClose } = props;
  useBackClose(visible, onClose);
  return (
    <ImageViewer.Multi
      visible={visible}
      images={[...images]}
      defaultIndex={defaultIndex}
      onIndexChange={onIndexChange}
      onClose={onClose}
      classNames={{ mask: "image-preview", body: "image-preview__body" }}
      renderFooter={(_, index) => (
        <div className="image-preview__counter" data-testid="image-preview-counter">
          {index + 1} / {images.length}
        </div>
      )}
    />
  );
}

/** Opens the image preview at `index`; resolves when it closes. */
export function openImagePreview(images: readonly string[], index = 0): Promise<void> {
  return mountOverlay<void>((visible, done) => (
    <ImagePreview visible={visible} images={images} defaultIndex={index} onClose={() => done()} />
  ));
}
