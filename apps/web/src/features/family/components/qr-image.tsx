import { DotLoading } from "antd-mobile";
import QRCode from "qrcode";
import { useEffect, useState } from "react";

/**
 * The QR image of a share code, drawn by `qrcode` as a PNG data URL,
 * 240 px wide on a 375 px design, low error correction (fewer, larger modules: the code is shown on a clean screen), brand-dark modules. The code text is kept on
 * `data-code` so browser tests can read what a phone would scan.
 */
export function QrImage(props: { code: string; testId?: string; className?: string }) {
  const { code, testId, className } = props;
  const [src, setSrc] = useState<string | null>(null);
  useEffect(() => {
    let live = true;
    setSrc(null);
    QRCode.toDataURL(code, { errorCorrectionLevel: "L", margin: 1, width: 480, color: { dark: "#0b2a3c" } })
      .then((url) => live && setSrc(url))
      .catch((err: unknown) => console.warn("[qr] cannot draw the code", err));
    return () => {
      live = false;
    };
  }, [code]);
  return (
    <div className={`qr-image ${className ?? ""}`} data-testid={testId} data-code={code}>
      {src ? <img src={src} alt="QR" /> : <DotLoading color="primary" />}
    </div>
  );
}
