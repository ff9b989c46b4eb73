/**
 * Enumerations of spec §3, with their numeric wire values and the spec's English texts.
 * Screens translate through i18n keys built from these names; the numbers are the wire values.
 */

/** Device stations 0–8 of a softener control valve (spec §3 "Device stations"). */
export const Station = {
  InService: 0,
  Backwashing: 1,
  BrineDrawAndSlowRinse: 2,
  BrineRefilling: 3,
  FastRinsing: 4,
  Closed: 5,
  SaltDissolving6: 6,
  SaltDissolving7: 7,
  WaitingToExit: 8,
} as const;
export type Station = (typeof Station)[keyof typeof Station];
/** Every station value, in order. */
export const STATIONS: readonly Station[] = [0, 1, 2, 3, 4, 5, 6, 7, 8];
/** The spec's English text for each station (spec §3); also the en locale's source. */
export const STATION_TEXT: Record<Station, string> = {
  0: "in service",
  1: "backwashing",
  2: "brine draw and slow rinse",
  3: "brine refilling",
  4: "fast rinsing",
  5: "closed",
  6: "salt dissolving",
  7: "salt dissolving",
  8: "waiting to exit",
};

/** Work patterns 0–6 (spec §3): when and how the valve regenerates. */
export const WorkPattern = {
  DownflowDelayed: 0,
  DownflowImmediate: 1,
  DownflowIntelligent: 2,
  UpflowDelayed: 3,
  UpflowImmediate: 4,
  UpflowIntelligent: 5,
  FilterType: 6,
} as const;
export type WorkPattern = (typeof WorkPattern)[keyof typeof WorkPattern];
export const WORK_PATTERNS: readonly WorkPattern[] = [0, 1, 2, 3, 4, 5, 6];

/** System close reasons (spec §3): why the valve closed the water supply. */
export const SystemCloseReason = {
  ValveButton: 257,
  LeakPointSignal: 513,
  ContinuousUseTooLong: 769,
  ExcessiveInstantaneousFlow: 1025,
} as const;
export type SystemCloseReason = (typeof SystemCloseReason)[keyof typeof SystemCloseReason];
export const SYSTEM_CLOSE_REASONS: readonly SystemCloseReason[] = Object.values(SystemCloseReason);

/** Whether `n` is one of the system close reasons of spec §3 (a stored or reported number may be anything). */
export function isSystemCloseReason(n: number): n is SystemCloseReason {
  return (SYSTEM_CLOSE_REASONS as readonly number[]).includes(n);
}

/** Report time types for water-usage statistics (spec §3). */
export const ReportTimeType = { Month: 1, Week: 2, Day: 3 } as const;
export type ReportTimeType = (typeof ReportTimeType)[keyof typeof ReportTimeType];

/** User bind types (spec §3): how an account is identified. */
export const BindType = { Email: 1, Phone: 2 } as const;
export type BindType = (typeof BindType)[keyof typeof BindType];

/** Service regions (spec §3); chosen at registration and fixed afterwards (spec §5). */
export const ServiceRegion = { China: 1, Europe: 2 } as const;
export type ServiceRegion = (typeof ServiceRegion)[keyof typeof ServiceRegion];

/** Bluetooth network-setup states 0–4 (spec §3). */
export const BluetoothSetupState = {
  Awaiting: 0,
  ConfigReceived: 1,
  ConnectingToWifi: 2,
  WifiConnected: 3,
  ServerConnected: 4,
} as const;
export type BluetoothSetupState = (typeof BluetoothSetupState)[keyof typeof BluetoothSetupState];

/** Real-time channel state (spec §3, transitions in §4). */
export const RealtimeChannelState = { None: 0, Connecting: 1, Connected: 2 } as const;
export type RealtimeChannelState = (typeof RealtimeChannelState)[keyof typeof RealtimeChannelState];

/** Interface languages (spec §1); zh-Hans is the default and fallback. */
export const LANGUAGES = ["zh-Hans", "en", "es", "ru", "fr"] as const;
export type Language = (typeof LANGUAGES)[number];
export const DEFAULT_LANGUAGE: Language = "zh-Hans";

/** Business constants of spec §9. */
export const LIMITS = {
  pageSize: 15,
  loadMoreOffsetPx: 150,
  refreshDelayMs: 333,
  reloadAfterFailedAuthMs: 1000,
  qrValidityMinutes: 15,
  minPasswordLength: 6,
  longPressMs: 2000,
  waitAfterBeepMs: 5000,
  customerServicePhone: "114",
} as const;
