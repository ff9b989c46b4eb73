import { imageUrl } from "../api/api-host.ts";
import { FallbackImage } from "./fallback-image.tsx";

/**
 * A device's picture (spec §3 Device image; §7 "Images": the API host is prefixed to a relative path), or a drawn
 * softener when there is none or it fails to load. `image` is the stored path or URL, as the API returns it.
 * Test ids: `device-image` (the picture), `device-image-placeholder` (the drawing).
 */
export function DeviceImage({ image }: { image: string | null | undefined }) {
  return <FallbackImage src={imageUrl(image)} alt="" testId="device-image" fallback={<SoftenerDrawing />} />;
}

/** The drawn softener shown without a picture. */
function SoftenerDrawing() {
  return (
    <svg viewBox="0 0 48 48" width="100%" height="100%" aria-hidden="true" data-testid="device-image-placeholder">
      <rect x="13" y="4" width="22" height="8" rx="3" fill="#0093dd" />
      <rect x="11" y="11" width="26" height="33" rx="8" fill="#d8eefa" stroke="#0093dd" strokeWidth="2" />
      <path d="M24 19c-3 4-6 7-6 10.5a6 6 0 0 0 12 0c0-3.5-3-6.5-6-10.5z" fill="#0093dd" />
    </svg>
  );
}
