import { useId } from "react";

/** One option of a {@link SegmentedChoice}. */
export interface SegmentedOption<T> {
  value: T;
  /** The segment's text, which is also the radio button's name. */
  label: string;
  /** `data-testid` of the segment (the element tapped and clicked in tests). */
  testId: string;
}

/**
 * A choice of one among a few options drawn as side-by-side segments (`.segmented` in styles.css), the chosen one
 * highlighted. Each segment is a label around a native radio button that covers it unseen, so the group is a real
 * radio group named `label` for screen readers, one tab stop whose choice the arrow keys move, and a tap anywhere on a
 * segment chooses it. `onChange` gets the value of a newly chosen option (never the one already chosen). `disabled`
 * keeps every option from being chosen (while what it sets is still loading).
 */
export function SegmentedChoice<T>({
  label,
  options,
  value,
  onChange,
  disabled,
}: {
  label: string;
  options: readonly SegmentedOption<T>[];
  value: T;
  onChange: (value: T) => void;
  disabled?: boolean;
}) {
  const name = useId();
  return (
    <div className="segmented" role="radiogroup" aria-label={label}>
      {options.map((o) => {
        const checked = o.value === value;
        return (
          <label
            key={o.testId}
            className={`segmented__item ${checked ? "segmented__item--active" : ""}`}
            data-testid={o.testId}
          >
            <input
              type="radio"
              className="segmented__input covering-input"
              name={name}
              checked={checked}
              disabled={disabled}
              onChange={() => onChange(o.value)}
            />
            {o.label}
          </label>
        );
      })}
    </div>
  );
}
