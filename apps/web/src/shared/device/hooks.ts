import { ErrorCode, type TDeviceChangeMessage } from "@aquapilot/contract/wire";
import { useQueryClient } from "@tanstack/react-query";
import { useCallback, useEffect, useReducer, useRef, useState } from "react";
import { ApiError } from "../api/errors.ts";
import { deviceChannel, useKeepDevicesLive } from "../realtime/index.ts";
import { getCommandStatus } from "./api/get-command-status.ts";
import { useDeviceInfo } from "./api/get-device-info.ts";
import { deviceKeys, invalidateDeviceStatistics } from "./api/keys.ts";
import { sendDeviceCommand } from "./api/send-device-command.ts";
import { type CommandKind, type CommandState, commandReducer, IDLE, newCommandId } from "./command-state.ts";
import { applyLiveMessage, type LiveDevice } from "./live-device.ts";
import { refreshesStatistics } from "./live-refresh.ts";
import { LongPress } from "./long-press.ts";

/** How long a command waits for the device's acknowledgement before it fails with "Device offline", ms. */
export const COMMAND_TIMEOUT_MS = 30_000;
/** How often a pending command's status is polled (fallback for a missed hub-1 ack), ms. */
export const COMMAND_POLL_MS = 3000;

/** The phone's clock, re-rendered every `intervalMs` (drives local countdowns and "N min ago"). */
export function useNow(intervalMs = 1000): number {
  const [now, setNow] = useState(() => Date.now());
  useEffect(() => {
    const timer = setInterval(() => setNow(Date.now()), intervalMs);
    return () => clearInterval(timer);
  }, [intervalMs]);
  return now;
}

/**
 * How a firmware update ended, as hub 1 told it (docs/device-protocol.md §3.7): done at 100 %, or failed with the
 * "ota-failed" event's reason ("download", "hash", "signature", "boot"; null when the device gave none).
 */
export interface OtaOutcome {
  ok: boolean;
  reason: string | null;
}

/** A close event seen live on hub 1 (Fault screen). */
export interface LiveCloseEvent {
  closeReason: number;
  time: string;
}

/**
 * The live device of the Device screen (spec §7 hub 1): loads query-device-info, keeps the family list live
 * (useKeepDevicesLive) and patches the device query on each message; a regeneration start/end event or a successful
 * ack refreshes the statistics, salt status and regeneration cycles. Answers the device (undefined until read), the
 * query's error state and refetch, the firmware update progress (percent, null when none is running), how the last
 * update seen ended (null when none ended since the screen opened) and the close
 * events seen since the screen opened. The caller redraws only when one of those changes — not when the query
 * merely fetches again or the channel's state changes (the screen stays as it is after its first paint;
 * the live chip reads the channel's state itself).
 */
export function useLiveDevice(deviceId: string, familyId: string | null | undefined) {
  const queryClient = useQueryClient();
  const query = useDeviceInfo(deviceId);
  useKeepDevicesLive(familyId);
  const [otaProgress, setOtaProgress] = useState<number | null>(null);
  const [otaOutcome, setOtaOutcome] = useState<OtaOutcome | null>(null);
  const [closeEvents, setCloseEvents] = useState<LiveCloseEvent[]>([]);
  useEffect(() => {
    const channel = deviceChannel();
    return channel.onMessage((message: TDeviceChangeMessage) => {
      if (message.deviceId !== deviceId) return;
      queryClient.setQueryData<LiveDevice>(deviceKeys.info(deviceId), (d) => (d ? applyLiveMessage(d, message) : d));
      // A regeneration started or ended, or a command was acknowledged: statistics, salt and cycles are stale.
      if (refreshesStatistics(message, deviceId)) void invalidateDeviceStatistics(queryClient, deviceId);
      if (message.kind === "event" && message.event) {
        const { type, progress, closeReason } = message.event;
        if (type === "ota-progress" && typeof progress === "number") {
          setOtaProgress(progress >= 100 ? null : progress);
          setOtaOutcome(progress >= 100 ? { ok: true, reason: null } : null);
        }
        if (type === "ota-failed") {
          setOtaProgress(null);
          setOtaOutcome({ ok: false, reason: message.event.reason ?? null });
        }
        if (closeReason) {
          const time = new Date().toISOString(); // real time the phone heard of it, not the device clock
          setCloseEvents((list) => [{ closeReason, time }, ...list].slice(0, 20));
        }
      }
    });
  }, [deviceId, queryClient]);
  // Read field by field: TanStack Query then tracks only these (a spread would track isFetching and every other one).
  const { data: device, isError, error, refetch } = query;
  return { device, isError, error, refetch, otaProgress, setOtaProgress, otaOutcome, setOtaOutcome, closeEvents };
}

/**
 * One device command with the state machine of `command-state.ts`: `run(kind)` fails at once with "offline" when
 * the device is offline; else it sends the command with a fresh id, settles on the hub-1 ack with that id or the
 * call's answer (the server waits for the device), polls get-command-status while pending, and fails with
 * "Device offline" on the server's DeviceOffline answer or after `timeoutMs`.
 */
export function useDeviceCommand(deviceId: string, online: boolean, timeoutMs = COMMAND_TIMEOUT_MS) {
  const [state, dispatch] = useReducer(commandReducer, IDLE as CommandState);
  const pending = state.status === "pending";
  const commandId = state.status === "pending" ? state.commandId : null;
  useEffect(() => {
    if (!pending) return;
    const off = deviceChannel().onMessage((message) => {
      // A refusal is shown from the server's answer (its text is in the user's language); success settles at once.
      if (message.deviceId === deviceId && message.kind === "ack" && message.ack?.ok) {
        dispatch({ type: "ack", ack: message.ack });
      }
    });
    const timer = setTimeout(() => dispatch({ type: "timeout" }), timeoutMs);
    return () => {
      off();
      clearTimeout(timer);
    };
  }, [pending, deviceId, timeoutMs]);
  useEffect(() => {
    if (!commandId) return;
    const poll = setInterval(() => {
      getCommandStatus(commandId)
        .then((s) => {
          if (s.status !== "pending")
            dispatch({ type: "ack", ack: { commandId, ok: s.status === "done", error: s.message ?? s.error } });
        })
        .catch(() => {});
    }, COMMAND_POLL_MS);
    return () => clearInterval(poll);
  }, [commandId]);
  const run = useCallback(
    async (kind: CommandKind) => {
      dispatch({ type: "reset" });
      dispatch({ type: "send", kind, at: Date.now() });
      if (!online) {
        dispatch({ type: "offline" });
        return;
      }
      const id = newCommandId();
      dispatch({ type: "accepted", commandId: id });
      try {
        const result = await sendDeviceCommand(deviceId, kind, id);
        if (result.status !== "pending") {
          dispatch({
            type: "ack",
            ack: { commandId: id, ok: result.status === "done", error: result.message ?? result.error },
          });
        }
      } catch (err) {
        if (err instanceof ApiError && err.code === ErrorCode.DeviceOffline) dispatch({ type: "offline" });
        else dispatch({ type: "error", message: err instanceof Error ? err.message : String(err) });
      }
    },
    [deviceId, online],
  );
  const reset = useCallback(() => dispatch({ type: "reset" }), []);
  return { state, run, reset };
}

/**
 * Press-and-hold handlers for a button (spec §4 forced switch, §9 2 s): spread `handlers` on the element;
 * `progress` (0–1) fills while held; `onFire` runs when held long enough. A pointer holds it, and so do Space and
 * Enter held down on the focused button; releasing, leaving or losing focus ends the hold. Disabled → no hold starts.
 *
 * A screen reader's activation is a click with no pointer or key behind it (`detail` 0), which cannot be held:
 * `onActivate`, when given, runs for it instead — the caller's accessible alternative (a confirmation), so the action
 * still needs a deliberate second step.
 */
export function useLongPress(onFire: () => void, disabled = false, onActivate?: () => void) {
  const fire = useRef(onFire);
  fire.current = onFire;
  const activate = useRef(onActivate);
  activate.current = onActivate;
  const press = useRef<LongPress | null>(null);
  press.current ??= new LongPress(() => fire.current());
  const [progress, setProgress] = useState(0);
  const frame = useRef<ReturnType<typeof setInterval> | null>(null);
  const stop = useCallback(() => {
    press.current?.cancel();
    if (frame.current) clearInterval(frame.current);
    frame.current = null;
    setProgress(0);
  }, []);
  const start = useCallback(() => {
    if (disabled || !press.current) return;
    press.current.start();
    if (frame.current) clearInterval(frame.current);
    frame.current = setInterval(() => {
      const p = press.current;
      if (!p?.holding) {
        stop();
        return;
      }
      setProgress(p.progress());
    }, 50);
  }, [disabled, stop]);
  useEffect(() => stop, [stop]);
  /** Space and Enter hold the button as a finger does (WCAG 2.1.1); the key's auto-repeat keeps the one hold. */
  const holdKey = (key: string) => key === " " || key === "Enter";
  return {
    progress,
    handlers: {
      onPointerDown: start,
      onPointerUp: stop,
      onPointerLeave: stop,
      onPointerCancel: stop,
      onContextMenu: (e: { preventDefault: () => void }) => e.preventDefault(),
      onKeyDown: (e: { key: string; repeat: boolean; preventDefault: () => void }) => {
        if (!holdKey(e.key)) return;
        e.preventDefault(); // no page scroll for Space, no click
        if (!e.repeat) start();
      },
      onKeyUp: (e: { key: string; preventDefault: () => void }) => {
        if (!holdKey(e.key)) return;
        e.preventDefault();
        stop();
      },
      onBlur: stop,
      onClick: (e: { detail: number }) => {
        if (e.detail === 0 && !disabled) activate.current?.();
      },
    },
  };
}
