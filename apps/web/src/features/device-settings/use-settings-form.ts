import type { TCommandStatus, TDeviceModelSetting, TDeviceWithData } from "@aquapilot/contract/wire";
import { useQueryClient } from "@tanstack/react-query";
import { useEffect, useMemo, useState } from "react";
import { useTranslation } from "react-i18next";
import { errorMessage } from "../../shared/api/errors.ts";
import { queryKeys } from "../../shared/api/query-keys.ts";
import { useSingleFlight } from "../../shared/ui/index.ts";
import { prefersReducedMotion } from "../../shared/ui/motion.ts";
import { sendDeviceConfig } from "./api/send-device-config.ts";
import { waitForCommand } from "./api/wait-for-command.ts";
import { readModelSetting } from "./model-bounds.ts";
import {
  changedSettings,
  checkSetting,
  editedFieldNames,
  type SettingBounds,
  type SettingField,
  type SettingName,
  type SettingProblem,
  type SettingsRecord,
  settingToText,
  type UnitContext,
} from "./settings-fields.ts";

/** What the save bar says: nothing yet, sending, the device applied it (or nothing needed sending), refused. */
export type SaveStatus =
  | { state: "idle" }
  | { state: "pending" }
  | { state: "done"; nothing: boolean }
  | { state: "failed"; message: string }
  | { state: "invalid"; count: number };

/** How long values the device acknowledged are shown before its report must confirm them, ms. */
const APPLIED_HOLD_MS = 30_000;

/** The advanced-settings form of one device as {@link useSettingsForm} keeps it. */
export interface SettingsForm {
  /** The fields the model has, in screen order, and their bounds (wire units; readModelSetting). */
  fields: readonly SettingField[];
  bounds: Partial<Record<SettingName, SettingBounds>>;
  /** The owner's units and language the fields are shown and typed in. */
  ctx: UnitContext;
  /** What the device reports, with the values it acknowledged until its report carries them. */
  current: SettingsRecord;
  /** Each field's text: the owner's typed or picked one, else the device's value as text. */
  edited: Partial<Record<SettingName, string>>;
  /** Why a field's text is refused, by field (shown beside the field). */
  invalid: Partial<Record<SettingName, SettingProblem>>;
  status: SaveStatus;
  /** The fields whose text differs from the device's (what Save would send). */
  dirty: SettingName[];
  /** Takes a field's new text; a field marked wrong is checked again at once. */
  setValue: (field: SettingField, text: string) => void;
  /** Checks a typed number when the owner leaves the field (an empty or unchanged field is left alone). */
  checkOnBlur: (field: SettingField) => void;
  /** Checks and sends the changes (one save at a time); see {@link useSettingsForm}. */
  save: () => Promise<void>;
}

/**
 * The state of DeviceSetting's form (spec §2 /DeviceSetting, §3 settings, §5 checks): each field's text in the
 * owner's units (`volumeUnit`, `hardnessUnit`, the interface language), the refused ones, the fields changed and the
 * save. Save checks every changed field (all wrong ones marked, the first scrolled to, status "invalid" with their
 * count); with nothing to send it reports "done, nothing"; otherwise it sends the changes in the device's units
 * (send-device-config), waits for the device's answer and then shows the acknowledged values until the device's report
 * carries them (at most {@link APPLIED_HOLD_MS}), or reports "failed" with "device offline" (timeout or offline), the
 * device's message or the server's. `device` and `model` are the answers of get-device and get-device-model-setting
 * (undefined while loading: no values, the built-in fields).
 */
export function useSettingsForm(
  deviceId: string | undefined,
  device: TDeviceWithData | undefined,
  model: TDeviceModelSetting | undefined,
  units: Pick<UnitContext, "volumeUnit" | "hardnessUnit">,
): SettingsForm {
  const { t, i18n } = useTranslation();
  const client = useQueryClient();
  const flight = useSingleFlight();
  const { bounds, fields } = useMemo(() => readModelSetting(model), [model]);
  const reported = useMemo(() => (device?.settings ?? {}) as SettingsRecord, [device]);
  // Values the device acknowledged, shown until its next report carries them (it may arrive a moment later).
  const [applied, setApplied] = useState<SettingsRecord>({});
  const current = useMemo(() => ({ ...reported, ...applied }), [reported, applied]);
  const lang = i18n.language;
  const ctx = useMemo<UnitContext>(
    () => ({
      volumeUnit: units.volumeUnit,
      hardnessUnit: units.hardnessUnit,
      lang,
      periodicUnit: reported.periodicWaterProductionUnit as number | undefined,
    }),
    [units.volumeUnit, units.hardnessUnit, lang, reported.periodicWaterProductionUnit],
  );
  // The owner's typed or picked values, by field; a field without one shows what the device has.
  const [edits, setEdits] = useState<Partial<Record<SettingName, string>>>({});
  const [invalid, setInvalid] = useState<Partial<Record<SettingName, SettingProblem>>>({});
  const [status, setStatus] = useState<SaveStatus>({ state: "idle" });

  const initial = useMemo(() => {
    const texts: Partial<Record<SettingName, string>> = {};
    for (const f of fields) texts[f.name] = settingToText(f, current[f.name], ctx, bounds[f.name]?.step);
    return texts;
  }, [fields, current, ctx, bounds]);
  const edited = useMemo(() => ({ ...initial, ...edits }), [initial, edits]);
  const dirty = useMemo(
    () => editedFieldNames(current, edited, bounds, ctx, fields),
    [current, edited, bounds, ctx, fields],
  );

  // Once the device's report shows what it acknowledged (or after a while), read the report alone again.
  useEffect(() => {
    const names = Object.keys(applied) as SettingName[];
    if (names.length === 0) return;
    if (names.every((n) => reported[n] === applied[n])) {
      setApplied({});
      return;
    }
    const timer = setTimeout(() => setApplied({}), APPLIED_HOLD_MS);
    return () => clearTimeout(timer);
  }, [reported, applied]);

  const setValue = (field: SettingField, text: string) => {
    setEdits((e) => ({ ...e, [field.name]: text }));
    setStatus((s) => (s.state === "pending" ? s : { state: "idle" }));
    // A field marked wrong is checked again at once, so its error goes as soon as the value is right.
    setInvalid((list) => {
      if (!list[field.name]) return list;
      const checked = checkSetting(field, text, bounds[field.name], ctx);
      const { [field.name]: _, ...rest } = list;
      return checked.ok ? rest : { ...rest, [field.name]: checked.problem };
    });
  };

  const checkOnBlur = (field: SettingField) => {
    const text = edited[field.name] ?? "";
    if (text.trim() === "" || text === initial[field.name]) return;
    const checked = checkSetting(field, text, bounds[field.name], ctx);
    setInvalid((list) => {
      const { [field.name]: _, ...rest } = list;
      return checked.ok ? rest : { ...rest, [field.name]: checked.problem };
    });
  };

  const save = () =>
    flight.run(async () => {
      if (!deviceId || status.state === "pending") return;
      const result = changedSettings(current, edited, bounds, ctx, fields);
      if ("invalid" in result) {
        const problems: Partial<Record<SettingName, SettingProblem>> = {};
        for (const name of result.invalid) {
          const field = fields.find((f) => f.name === name);
          const checked = field ? checkSetting(field, edited[name] ?? "", bounds[name], ctx) : null;
          problems[name] = checked && !checked.ok ? checked.problem : "range";
        }
        setInvalid(problems);
        setStatus({ state: "invalid", count: result.invalid.length });
        document
          .querySelector(`[data-testid="device-setting-${result.invalid[0]}"]`)
          ?.scrollIntoView({ block: "center", behavior: prefersReducedMotion() ? "auto" : "smooth" });
        return;
      }
      setInvalid({});
      if (Object.keys(result.settings).length === 0) {
        setEdits({});
        setStatus({ state: "done", nothing: true });
        return;
      }
      setStatus({ state: "pending" });
      try {
        const first: TCommandStatus = await sendDeviceConfig(deviceId, result.settings);
        const outcome = first.status === "pending" ? await waitForCommand(first.commandId) : first;
        if (outcome.status === "done") {
          setApplied((a) => ({ ...a, ...result.settings }));
          setEdits({});
          setStatus({ state: "done", nothing: false });
          await client.invalidateQueries({ queryKey: queryKeys.deviceAll });
        } else {
          const offline = outcome.error === "timeout" || outcome.error === "offline";
          setStatus({
            state: "failed",
            message: offline ? t("deviceSetting.offline") : outcome.message || t("deviceSetting.failed"),
          });
        }
      } catch (err) {
        setStatus({ state: "failed", message: errorMessage(err, t("deviceSetting.failed")) });
      }
    });

  return { fields, bounds, ctx, current, edited, invalid, status, dirty, setValue, checkOnBlur, save };
}
