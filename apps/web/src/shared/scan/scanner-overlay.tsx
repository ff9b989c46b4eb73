import type { IScannerControls } from "@zxing/browser";
import { CloseOutline, PictureOutline } from "antd-mobile-icons";
import { type ChangeEvent, useEffect, useRef, useState } from "react";
import "./scan.css";

/** Labels of the scanner overlay, localised by the caller. */
export interface ScanTexts {
  /** Top bar title, e.g. "Scan QR code". */
  title: string;
  /** Line under the frame, e.g. "Align the QR code within the frame". */
  hint: string;
  /** Shown when the camera cannot start (no camera, permission denied, insecure page). */
  cameraError: string;
  /** Button that reads a photo of the code instead. */
  album: string;
  /** Shown when a chosen photo holds no readable code. */
  noCodeInImage: string;
  /** Label of the close button. */
  close: string;
}

/**
 * Loads the decoder (@zxing/browser) only when a scan starts, so no screen carries it before. TRY_HARDER: share codes
 * are long (a dense QR version), and photos of a screen are often small or skewed.
 */
const loadReader = async () => {
  const [{ BrowserQRCodeReader }, { DecodeHintType }] = await Promise.all([
    import("@zxing/browser"),
    import("@zxing/library"),
  ]);
  return new BrowserQRCodeReader(new Map([[DecodeHintType.TRY_HARDER, true]]));
};

/**
 * The in-page camera scanner: back camera preview with a frame, decoding continuously with @zxing/browser until a
 * QR code is read (`onResult`), the close button (`onCancel`), or a photo chosen from the album is decoded.
 */
export function ScannerOverlay(props: { texts: ScanTexts; onResult: (text: string) => void; onCancel: () => void }) {
  const { texts, onResult, onCancel } = props;
  const video = useRef<HTMLVideoElement>(null);
  const [cameraFailed, setCameraFailed] = useState(false);
  const [imageFailed, setImageFailed] = useState(false);

  useEffect(() => {
    let controls: IScannerControls | null = null;
    let stopped = false;
    let done = false;
    (async () => {
      try {
        if (!navigator.mediaDevices?.getUserMedia) throw new Error("no camera API (insecure page?)");
        const reader = await loadReader();
        if (stopped || !video.current) return;
        const started = await reader.decodeFromConstraints(
          { video: { facingMode: "environment" } },
          video.current,
          (result, _error, c) => {
            if (!result || done) return;
            done = true;
            c.stop();
            onResult(result.getText());
          },
        );
        if (stopped) started.stop();
        else controls = started;
      } catch (err) {
        console.warn("[scan] camera unavailable", err);
        if (!stopped) setCameraFailed(true);
      }
    })();
    return () => {
      stopped = true;
      controls?.stop();
    };
  }, [onResult]);

  const readImage = async (event: ChangeEvent<HTMLInputElement>) => {
    const file = event.target.files?.[0];
    event.target.value = "";
    if (!file) return;
    const url = URL.createObjectURL(file);
    setImageFailed(false);
    try {
      const text = await decodeImage(url);
      if (text) onResult(text);
      else setImageFailed(true);
    } finally {
      URL.revokeObjectURL(url);
    }
  };

  return (
    <div className="scan" role="dialog" aria-label={texts.title} data-testid="scan-overlay">
      <video ref={video} className="scan__video" muted playsInline />
      <div className="scan__bar">
        <button
          type="button"
          className="scan__close"
          aria-label={texts.close}
          onClick={onCancel}
          data-testid="scan-close"
        >
          <CloseOutline />
        </button>
        <span className="scan__title">{texts.title}</span>
      </div>
      <div className="scan__frame">
        <span className="scan__line" />
      </div>
      <div className="scan__hint" data-testid="scan-hint">
        {imageFailed ? texts.noCodeInImage : cameraFailed ? texts.cameraError : texts.hint}
      </div>
      <label className="scan__album" data-testid="scan-album">
        <PictureOutline />
        <span>{texts.album}</span>
        <input type="file" accept="image/*" onChange={readImage} hidden />
      </label>
    </div>
  );
}

/**
 * Reads a QR code from a picture: as it is, then redrawn at other scales (the detector misses some dense codes at
 * one module size and finds them at another). Resolves with the text, or null when no scale yields a code.
 */
async function decodeImage(url: string): Promise<string | null> {
  const reader = await loadReader();
  try {
    return (await reader.decodeFromImageUrl(url)).getText();
  } catch {
    // try other scales below
  }
  const image = new Image();
  image.src = url;
  await image.decode().catch(() => undefined);
  if (!image.naturalWidth) return null;
  for (const scale of [0.5, 0.75, 1.5, 0.33]) {
    const canvas = document.createElement("canvas");
    canvas.width = Math.max(1, Math.round(image.naturalWidth * scale));
    canvas.height = Math.max(1, Math.round(image.naturalHeight * scale));
    const context = canvas.getContext("2d");
    if (!context) return null;
    context.fillStyle = "#fff";
    context.fillRect(0, 0, canvas.width, canvas.height);
    context.drawImage(image, 0, 0, canvas.width, canvas.height);
    try {
      return reader.decodeFromCanvas(canvas).getText();
    } catch {
      // next scale
    }
  }
  return null;
}
