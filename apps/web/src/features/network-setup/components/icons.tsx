/** Small line icons antd-mobile-icons lacks (Bluetooth, Wi-Fi), drawn in `currentColor` at 1 em. */

/** The Bluetooth rune. */
export function BluetoothIcon() {
  return (
    <svg viewBox="0 0 24 24" width="1em" height="1em" aria-hidden="true" fill="none">
      <path
        d="M7 7.5l10 9-5 4.5V3l5 4.5-10 9"
        stroke="currentColor"
        strokeWidth="1.8"
        strokeLinecap="round"
        strokeLinejoin="round"
      />
    </svg>
  );
}

/** Wi-Fi arcs. */
export function WifiIcon() {
  return (
    <svg viewBox="0 0 24 24" width="1em" height="1em" aria-hidden="true" fill="none">
      <path
        d="M2.5 9a14 14 0 0 1 19 0M5.5 12.3a9.5 9.5 0 0 1 13 0M8.6 15.5a5 5 0 0 1 6.8 0"
        stroke="currentColor"
        strokeWidth="1.8"
        strokeLinecap="round"
      />
      <circle cx="12" cy="19" r="1.4" fill="currentColor" />
    </svg>
  );
}

/** Signal strength as 1–4 bars from a dBm value (−50 and better: 4 … below −80: 1). */
export function SignalBars({ rssi }: { rssi: number }) {
  const bars = rssi >= -50 ? 4 : rssi >= -65 ? 3 : rssi >= -80 ? 2 : 1;
  return (
    <svg viewBox="0 0 16 12" width="1.2em" height="0.9em" aria-hidden="true" data-bars={bars}>
      {[0, 1, 2, 3].map((i) => (
        <rect
          key={i}
          x={i * 4}
          y={9 - i * 3}
          width="3"
          height={3 + i * 3}
          rx="0.6"
          fill="currentColor"
          opacity={i < bars ? 1 : 0.25}
        />
      ))}
    </svg>
  );
}
