import { DotLoading, SearchBar } from "antd-mobile";
import { CheckOutline, RightOutline } from "antd-mobile-icons";
import { type ReactNode, useCallback, useEffect, useMemo, useRef, useState } from "react";
import { useTranslation } from "react-i18next";
import { mountOverlay, useBackClose } from "./overlay.tsx";
import "./pickers.css";
import { Popup } from "./popup.tsx";

/**
 * The bottom-sheet list picker (spec §2: search, clearable, single or multiple selection with confirm, multi-level mode
 * loading children by parent id, total width 200 units). In multi-level mode the sheet's width counts as
 * {@link LIST_PICKER_TOTAL_WIDTH} units split evenly across the levels, all side by side (3 levels: 66.7 units each,
 * a third of the sheet), like a cascader; a level appears once its parent is chosen.
 */
/** Total width of the multi-level track in units (the sheet's width), split evenly across the levels. */
export const LIST_PICKER_TOTAL_WIDTH = 200;

/** Width of one level in units for a number of levels. */
export function levelWidthUnits(levels: number): number {
  return LIST_PICKER_TOTAL_WIDTH / Math.max(1, levels);
}

/** One choice. `isLeaf` stops a multi-level picker from loading children below it. */
export interface PickerOption {
  value: string;
  label: string;
  isLeaf?: boolean;
  disabled?: boolean;
}

/** Props of {@link ListPicker}. */
export interface ListPickerProps {
  visible: boolean;
  title?: ReactNode;
  /** Static choices (single level). */
  options?: readonly PickerOption[];
  /**
   * Loads the choices below a parent (null = top level), e.g. the region tree's travel-location-child by parentId.
   * Used when `options` is not given; with `levels` > 1 it is called for each chosen parent.
   */
  loadChildren?: (parentId: string | null) => Promise<PickerOption[]>;
  /** Depth of multi-level mode (default 1). */
  levels?: number;
  /** Several choices with a confirm button (single level, or the last level). */
  multiple?: boolean;
  /** Show the search box (default true); it filters the deepest shown level by label. */
  searchable?: boolean;
  /** Show the "clear" link; choosing it confirms an empty selection. */
  clearable?: boolean;
  /** Initially selected values (multiple: any; single: one). */
  value?: readonly string[];
  /**
   * Called with the choice: single → [option]; multiple → the checked options; multi-level → the path from the top
   * level down (the last entry is the chosen one); clear → [].
   */
  onConfirm: (selected: PickerOption[]) => void;
  onCancel: () => void;
  /** `data-testid` root (default "list-picker"): `-search`, `-clear`, `-confirm`, `-cancel`, `-level-<n>`, `-option-<value>`. */
  testId?: string;
  /** The caller holds the back-stack entry ({@link showListPicker}); default false: the picker takes its own. */
  backByCaller?: boolean;
}

interface Level {
  parent: PickerOption | null;
  options: PickerOption[];
  state: "loading" | "ready" | "error";
}

/** The bottom-sheet list picker (controlled by `visible`). */
export function ListPicker(props: ListPickerProps) {
  const { t } = useTranslation();
  const {
    visible,
    options,
    loadChildren,
    levels = 1,
    multiple = false,
    searchable = true,
    clearable = false,
    onConfirm,
    onCancel,
    testId = "list-picker",
    backByCaller = false,
  } = props;
  const [columns, setColumns] = useState<Level[]>([]);
  const [path, setPath] = useState<PickerOption[]>([]);
  const [checked, setChecked] = useState<string[]>([]);
  const [keyword, setKeyword] = useState("");
  const loadSeq = useRef(0);
  useBackClose(visible && !backByCaller, onCancel);

  const load = useCallback(
    async (depth: number, parent: PickerOption | null) => {
      const seq = ++loadSeq.current;
      setColumns((prev) => [...prev.slice(0, depth), { parent, options: [], state: "loading" }]);
      try {
        const children = options && depth === 0 ? [...options] : await (loadChildren?.(parent?.value ?? null) ?? []);
        if (seq !== loadSeq.current) return children;
        setColumns((prev) => [...prev.slice(0, depth), { parent, options: children, state: "ready" }]);
        return children;
      } catch (err) {
        console.warn("[list-picker] load failed", err);
        if (seq === loadSeq.current) {
          setColumns((prev) => [...prev.slice(0, depth), { parent, options: [], state: "error" }]);
        }
        return null;
      }
    },
    [options, loadChildren],
  );

  // biome-ignore lint/correctness/useExhaustiveDependencies: reset each time the sheet opens
  useEffect(() => {
    if (!visible) return;
    setPath([]);
    setKeyword("");
    setChecked([...(props.value ?? [])]);
    void load(0, null);
  }, [visible]);

  const deepest = columns.length - 1;
  const shownOptions = useMemo(() => {
    const text = keyword.trim().toLowerCase();
    return columns.map((level, i) =>
      text && i === deepest ? level.options.filter((o) => o.label.toLowerCase().includes(text)) : level.options,
    );
  }, [columns, keyword, deepest]);

  const lastLevel = (depth: number) => depth >= levels - 1;
  const multiLevel = levels > 1;

  const choose = async (depth: number, option: PickerOption) => {
    if (option.disabled) return;
    if (multiple && lastLevel(depth)) {
      setChecked((prev) =>
        prev.includes(option.value) ? prev.filter((v) => v !== option.value) : [...prev, option.value],
      );
      return;
    }
    const nextPath = [...path.slice(0, depth), option];
    setPath(nextPath);
    setKeyword("");
    if (lastLevel(depth) || option.isLeaf) {
      setColumns((prev) => prev.slice(0, depth + 1));
      onConfirm(nextPath);
      return;
    }
    const children = await load(depth + 1, option);
    if (children && children.length === 0) {
      setColumns((prev) => prev.slice(0, depth + 1));
      onConfirm(nextPath);
    }
  };

  const confirm = () => {
    if (multiple) {
      const all = columns.at(-1)?.options ?? [];
      const chosen = all.filter((o) => checked.includes(o.value));
      onConfirm(multiLevel ? [...path.slice(0, deepest), ...chosen] : chosen);
    } else {
      onConfirm(path);
    }
  };

  const showConfirm = multiple || multiLevel;
  const widthUnits = levelWidthUnits(levels);

  return (
    <Popup visible={visible} onMaskClick={onCancel} bodyClassName="list-picker" destroyOnClose>
      <div data-testid={testId} className="list-picker__inner">
        <div className="wheel-popup__bar">
          <button type="button" className="wheel-popup__cancel" data-testid={`${testId}-cancel`} onClick={onCancel}>
            {t("picker.cancel")}
          </button>
          <div className="wheel-popup__title">{props.title ?? t("picker.listTitle")}</div>
          {showConfirm ? (
            <button type="button" className="wheel-popup__confirm" data-testid={`${testId}-confirm`} onClick={confirm}>
              {t("picker.confirm")}
            </button>
          ) : (
            <span className="wheel-popup__spacer" />
          )}
        </div>
        {searchable || clearable ? (
          <div className="list-picker__tools">
            {searchable ? (
              <div className="list-picker__search" data-testid={`${testId}-search`}>
                <SearchBar placeholder={t("picker.search")} value={keyword} onChange={setKeyword} clearable />
              </div>
            ) : (
              <div className="list-picker__search" />
            )}
            {clearable ? (
              <button type="button" className="link" data-testid={`${testId}-clear`} onClick={() => onConfirm([])}>
                {t("picker.clear")}
              </button>
            ) : null}
          </div>
        ) : null}
        {multiLevel && path.length > 0 ? (
          <div className="list-picker__path" data-testid={`${testId}-path`}>
            {path.map((p) => p.label).join(" / ")}
          </div>
        ) : null}
        <div className={`list-picker__track${multiLevel ? " list-picker__track--levels" : ""}`}>
          {columns.map((level, depth) => (
            <div
              key={level.parent?.value ?? "root"}
              className="list-picker__level"
              data-testid={`${testId}-level-${depth}`}
              style={multiLevel ? { flex: `0 0 ${(widthUnits / LIST_PICKER_TOTAL_WIDTH) * 100}%` } : undefined}
            >
              {level.state === "loading" ? (
                <div className="list-picker__state">
                  <DotLoading color="primary" /> {t("picker.loading")}
                </div>
              ) : level.state === "error" ? (
                <button
                  type="button"
                  className="list-picker__state link"
                  onClick={() => void load(depth, level.parent)}
                >
                  {t("picker.loadFailed")} · {t("common.retry")}
                </button>
              ) : shownOptions[depth].length === 0 ? (
                <div className="list-picker__state">{t("picker.empty")}</div>
              ) : (
                shownOptions[depth].map((option) => {
                  const selected =
                    multiple && lastLevel(depth)
                      ? checked.includes(option.value)
                      : path[depth]?.value === option.value ||
                        (!multiLevel && path.length === 0 && checked.includes(option.value));
                  const more = multiLevel && !lastLevel(depth) && !option.isLeaf;
                  return (
                    <button
                      type="button"
                      key={option.value}
                      disabled={option.disabled}
                      className={`list-picker__option${selected ? " list-picker__option--selected" : ""}`}
                      data-testid={`${testId}-option-${option.value}`}
                      aria-pressed={selected}
                      onClick={() => void choose(depth, option)}
                    >
                      <span className="list-picker__label">{option.label}</span>
                      {selected ? <CheckOutline className="list-picker__check" /> : null}
                      {more && !selected ? <RightOutline className="list-picker__more" /> : null}
                    </button>
                  );
                })
              )}
            </div>
          ))}
        </div>
        {multiple ? (
          <div className="list-picker__count" data-testid={`${testId}-count`}>
            {t("picker.selectedCount", { count: checked.length })}
          </div>
        ) : null}
      </div>
    </Popup>
  );
}

/** Options of {@link openListPicker}. */
export type OpenListPickerOptions = Omit<ListPickerProps, "visible" | "onConfirm" | "onCancel" | "backByCaller">;

/**
 * Shows the list picker without a back-stack entry of its own, for a caller that holds one (shared/ui/lazy-overlays
 * openWithBack): `answer` gets the selection (see {@link ListPickerProps.onConfirm}), or null on cancel, a mask tap or
 * `close()`, once.
 */
export function showListPicker(
  options: OpenListPickerOptions,
  answer: (picked: PickerOption[] | null) => void,
): { close: () => void } {
  let finish: ((value: PickerOption[] | null) => void) | null = null;
  let closeEarly = false;
  void mountOverlay<PickerOption[] | null>((visible, done) => {
    finish = done;
    if (closeEarly) queueMicrotask(() => done(null));
    return (
      <ListPicker {...options} visible={visible} onConfirm={(v) => done(v)} onCancel={() => done(null)} backByCaller />
    );
  }).then(answer);
  return {
    close: () => {
      if (finish) finish(null);
      else closeEarly = true;
    },
  };
}

/**
 * Opens the list picker; resolves the selection (see {@link ListPickerProps.onConfirm}; [] after "clear"), or null on
 * cancel, mask tap or back.
 */
export function openListPicker(options: OpenListPickerOptions): Promise<PickerOption[] | null> {
  return mountOverlay<PickerOption[] | null>((visible, done) => (
    <ListPicker {...options} visible={visible} onConfirm={(v) => done(v)} onCancel={() => done(null)} />
  ));
}
