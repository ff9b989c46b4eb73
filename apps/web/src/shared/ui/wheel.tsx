import {
  type KeyboardEvent,
  type PointerEvent,
  type ReactNode,
  useEffect,
  useRef,
  useState,
  type WheelEvent,
} from "react";
import { useTranslation } from "react-i18next";
import { SWIPE_DURATION_MS } from "./date-time-rules.ts";
import { useBackClose } from "./overlay.tsx";
import "./pickers.css";
import { Popup } from "./popup.tsx";

/**
 * Wheel columns and the bottom popup that holds them (spec §2 time picker and date/time picker; "Swipe duration 300").
 * A column is dragged with a finger or mouse; a quick swipe (under 300 ms) keeps moving with momentum for
 * `swipeDuration` ms, then settles on the row under the centre band. Tapping a row or scrolling the mouse wheel
 * selects too, so keyboards, mice and browser tests can drive it. A column is one tab stop, its selected row: the
 * arrow keys, Page Up/Down, Home and End move the selection, and the focus goes with it.
 */

/** Rows visible in a column; the centre one is the selection. */
const VISIBLE_ROWS = 5;
/** A swipe faster than this (ms from the last turn) gets momentum, as in vant's picker. */
const MOMENTUM_TIME_MS = 300;
const MOMENTUM_DISTANCE_PX = 15;
/** Settling without momentum, in ms. */
const SETTLE_MS = 200;

/** Row height in rem of the 375 px design (36 px there). */
const ITEM_REM = 0.96;

/** The row height in CSS px: {@link ITEM_REM} at the root font size (the rows are sized from the same number). */
function useItemHeight(): number {
  const [height] = useState(() => {
    const root =
      typeof document === "undefined" ? 37.5 : Number.parseFloat(getComputedStyle(document.documentElement).fontSize);
    return Math.round((Number.isFinite(root) && root > 0 ? root : 37.5) * ITEM_REM);
  });
  return height;
}

/** Props of {@link WheelColumn}. */
export interface WheelColumnProps {
  options: readonly string[];
  /** Selected row (clamped to the options). */
  index: number;
  onChange: (index: number) => void;
  /** Momentum animation after a quick swipe, ms (default 300, spec §2). */
  swipeDuration?: number;
  /** `data-testid` of the column; rows get `<testId>-<option>`. */
  testId?: string;
  /** Text after each row's value, e.g. a unit. */
  suffix?: string;
  /** What the column chooses (e.g. "Min"), its name for screen readers. */
  label?: string;
}

/**
 * The row a key moves the selection to from row `from` of `count` (one row per arrow, a visible page per Page
 * Up/Down, the ends for Home/End, clamped to the rows); null for any other key.
 */
export function rowForKey(key: string, from: number, count: number): number | null {
  const steps: Record<string, number> = {
    ArrowDown: from + 1,
    ArrowUp: from - 1,
    PageDown: from + VISIBLE_ROWS,
    PageUp: from - VISIBLE_ROWS,
    Home: 0,
    End: count - 1,
  };
  const to = steps[key];
  return to === undefined ? null : Math.max(0, Math.min(count - 1, to));
}

/**
 * One wheel column (controlled by `index`): a listbox of `options` whose selected row is its one tab stop; drag,
 * swipe, tap, mouse wheel and keys ({@link rowForKey}; Enter or Space on a row) choose a row, reported by `onChange`.
 */
export function WheelColumn(props: WheelColumnProps) {
  const { options, onChange, swipeDuration = SWIPE_DURATION_MS, testId, suffix, label } = props;
  const count = options.length;
  const index = Math.max(0, Math.min(count - 1, props.index));
  const itemHeight = useItemHeight();
  const [drag, setDrag] = useState<{ offset: number; duration: number } | null>(null);
  const gesture = useRef({ startY: 0, startOffset: 0, turnTime: 0, turnOffset: 0, moved: false, active: false });

  const offsetOf = (i: number) => (Math.floor(VISIBLE_ROWS / 2) - i) * itemHeight;
  const indexOf = (offset: number) =>
    Math.max(0, Math.min(count - 1, Math.round(Math.floor(VISIBLE_ROWS / 2) - offset / itemHeight)));

  const settle = (target: number, duration: number) => {
    const next = indexOf(target);
    setDrag({ offset: offsetOf(next), duration });
    if (next !== index) onChange(next);
    // after the animation the controlled index drives the position again
    window.setTimeout(() => setDrag(null), duration);
  };

  const onPointerDown = (e: PointerEvent<HTMLDivElement>) => {
    if (e.button !== 0 || count === 0) return;
    const current = drag?.offset ?? offsetOf(index);
    gesture.current = {
      startY: e.clientY,
      startOffset: current,
      turnTime: Date.now(),
      turnOffset: current,
      moved: false,
      active: true,
    };
    e.currentTarget.setPointerCapture?.(e.pointerId);
    setDrag({ offset: current, duration: 0 });
  };

  const onPointerMove = (e: PointerEvent<HTMLDivElement>) => {
    const g = gesture.current;
    if (!g.active) return;
    const dy = e.clientY - g.startY;
    if (Math.abs(dy) > 3) g.moved = true;
    const min = offsetOf(count - 1) - itemHeight;
    const max = offsetOf(0) + itemHeight;
    const offset = Math.max(min, Math.min(max, g.startOffset + dy));
    const now = Date.now();
    if (now - g.turnTime > MOMENTUM_TIME_MS) {
      g.turnTime = now;
      g.turnOffset = offset;
    }
    setDrag({ offset, duration: 0 });
  };

  const onPointerUp = (e: PointerEvent<HTMLDivElement>) => {
    const g = gesture.current;
    if (!g.active) return;
    g.active = false;
    e.currentTarget.releasePointerCapture?.(e.pointerId);
    if (!g.moved) {
      setDrag(null);
      return;
    }
    const offset = drag?.offset ?? offsetOf(index);
    const distance = offset - g.turnOffset;
    const elapsed = Date.now() - g.turnTime;
    if (elapsed < MOMENTUM_TIME_MS && Math.abs(distance) > MOMENTUM_DISTANCE_PX) {
      const speed = Math.abs(distance / elapsed);
      settle(offset + (speed / 0.003) * Math.sign(distance), swipeDuration);
    } else {
      settle(offset, SETTLE_MS);
    }
  };

  // several wheel steps may arrive before the next render: count from the last requested row
  const wheelIndex = useRef(index);
  wheelIndex.current = index;
  const onWheel = (e: WheelEvent<HTMLDivElement>) => {
    if (e.deltaY === 0) return;
    const next = Math.max(0, Math.min(count - 1, wheelIndex.current + Math.sign(e.deltaY)));
    wheelIndex.current = next;
    if (next !== index) onChange(next);
  };

  // The focus follows a selection made from the keyboard (or anything else while a row of the column has focus).
  const column = useRef<HTMLDivElement>(null);
  const rows = useRef<(HTMLDivElement | null)[]>([]);
  useEffect(() => {
    if (column.current?.contains(document.activeElement)) rows.current[index]?.focus({ preventScroll: true });
  }, [index]);
  const onKeyDown = (e: KeyboardEvent<HTMLDivElement>, row: number) => {
    const next = e.key === "Enter" || e.key === " " ? row : rowForKey(e.key, index, count);
    if (next === null) return;
    e.preventDefault();
    if (next !== index) onChange(next);
  };

  const offset = drag?.offset ?? offsetOf(index);
  const duration = drag?.duration ?? SETTLE_MS;

  return (
    <div
      ref={column}
      className="wheel-column"
      data-testid={testId}
      role="listbox"
      aria-label={label}
      style={{ height: itemHeight * VISIBLE_ROWS }}
      onPointerDown={onPointerDown}
      onPointerMove={onPointerMove}
      onPointerUp={onPointerUp}
      onPointerCancel={onPointerUp}
      onWheel={onWheel}
      // the rows move by transform only; a focused row must not scroll the column
      onScroll={(e) => {
        e.currentTarget.scrollTop = 0;
      }}
    >
      <div
        className="wheel-column__list"
        style={{
          transform: `translate3d(0, ${offset}px, 0)`,
          transitionDuration: `${duration}ms`,
          transitionTimingFunction: duration === swipeDuration ? "cubic-bezier(0.23, 1, 0.68, 1)" : "ease-out",
        }}
      >
        {options.map((option, i) => (
          <div
            key={option}
            ref={(el) => {
              rows.current[i] = el;
            }}
            role="option"
            aria-selected={i === index}
            tabIndex={i === index ? 0 : -1}
            className={`wheel-column__item${i === index ? " wheel-column__item--selected" : ""}`}
            style={{ height: itemHeight }}
            data-testid={testId ? `${testId}-${option}` : undefined}
            onClick={() => {
              if (!gesture.current.moved && i !== index) onChange(i);
            }}
            onKeyDown={(e) => onKeyDown(e, i)}
          >
            {option}
            {suffix ? <span className="wheel-column__suffix">{suffix}</span> : null}
          </div>
        ))}
      </div>
    </div>
  );
}

/** One column of a {@link WheelPopup}. */
export interface WheelPopupColumn {
  key: string;
  options: readonly string[];
  /** Heading above the column (e.g. "Min"). */
  label?: string;
}

/** Props of {@link WheelPopup}. */
export interface WheelPopupProps {
  visible: boolean;
  title: ReactNode;
  columns: readonly WheelPopupColumn[];
  indexes: readonly number[];
  onIndexesChange: (indexes: number[]) => void;
  onCancel: () => void;
  onConfirm: () => void;
  swipeDuration?: number;
  /** `data-testid` root; parts get `-cancel`, `-confirm`, `-title`, `-col-<key>`. */
  testId?: string;
  afterClose?: () => void;
}

/**
 * The bottom popup of the wheel pickers: cancel on the left, title in the middle, confirm on the right, columns below
 * with the centre band. Takes part in the back stack (back = cancel); tapping the mask cancels.
 */
export function WheelPopup(props: WheelPopupProps) {
  const { t } = useTranslation();
  const {
    visible,
    title,
    columns,
    indexes,
    onIndexesChange,
    onCancel,
    onConfirm,
    swipeDuration,
    testId = "wheel",
  } = props;
  useBackClose(visible, onCancel);
  const showLabels = columns.some((c) => c.label);
  return (
    <Popup
      visible={visible}
      onMaskClick={onCancel}
      afterClose={props.afterClose}
      bodyClassName="wheel-popup"
      destroyOnClose
    >
      <div data-testid={testId}>
        <div className="wheel-popup__bar">
          <button type="button" className="wheel-popup__cancel" data-testid={`${testId}-cancel`} onClick={onCancel}>
            {t("picker.cancel")}
          </button>
          <div className="wheel-popup__title" data-testid={`${testId}-title`}>
            {title}
          </div>
          <button type="button" className="wheel-popup__confirm" data-testid={`${testId}-confirm`} onClick={onConfirm}>
            {t("picker.confirm")}
          </button>
        </div>
        {showLabels ? (
          <div className="wheel-popup__labels">
            {columns.map((c) => (
              <div key={c.key}>{c.label}</div>
            ))}
          </div>
        ) : null}
        <div className="wheel-popup__columns">
          <div className="wheel-popup__band" aria-hidden />
          {columns.map((column, i) => (
            <WheelColumn
              key={column.key}
              options={column.options}
              index={indexes[i] ?? 0}
              swipeDuration={swipeDuration}
              testId={`${testId}-col-${column.key}`}
              label={column.label}
              onChange={(next) => {
                const copy = [...indexes];
                copy[i] = next;
                onIndexesChange(copy);
              }}
            />
          ))}
        </div>
      </div>
    </Popup>
  );
}
