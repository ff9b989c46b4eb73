import { useCallback, useRef, useState } from "react";

/**
 * One submit at a time (a double tap never submits twice): `run(task)` starts `task` unless one started by this
 * hook is still running — a second tap before React has re-rendered the button as busy is dropped (resolves
 * undefined) synchronously, where a `disabled={isPending}` alone comes too late. `running` drives the button's
 * loading/disabled state. Errors of `task` reach the caller of `run`.
 */
export function useSingleFlight(): {
  run: <R>(task: () => Promise<R>) => Promise<R | undefined>;
  running: boolean;
} {
  const busy = useRef(false);
  const [running, setRunning] = useState(false);
  const run = useCallback(async <R>(task: () => Promise<R>): Promise<R | undefined> => {
    if (busy.current) return undefined;
    busy.current = true;
    setRunning(true);
    try {
      return await task();
    } finally {
      busy.current = false;
      setRunning(false);
    }
  }, []);
  return { run, running };
}
