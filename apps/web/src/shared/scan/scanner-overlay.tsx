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

/** Loads the decoder only when a scan starts (issue 3: @zxing/browser is lazy-loaded). */
const loadReader = async () => new (await import("@zxing/browser")).BrowserQRCodeReader();

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
    try {
      const reader = await loadReader();
      const result = await reader.decodeFromImageUrl(url);
      onResult(result.getText());
    } catch {
      setImageFailed(true);
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
        {cameraFailed ? texts.cameraError : imageFailed ? texts.noCodeInImage : texts.hint}
      </div>
      <label className="scan__album" data-testid="scan-album">
        <PictureOutline />
        <span>{texts.album}</span>
        <input type="file" accept="image/*" onChange={readImage} hidden />
      </label>
    </div>
  );
}
