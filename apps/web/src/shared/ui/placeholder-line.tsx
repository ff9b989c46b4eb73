/**
 * An empty field's placeholder written under it, for large text (html[data-large-text], styles.css "large text"): a
 * single-line input cuts its enlarged placeholder, so there the input's own placeholder is drawn transparent and this
 * line, which wraps, shows the same words while the field is empty. Its container carries the class
 * `has-placeholder-line` and holds the input. Hidden from assistive technology, which reads the input's placeholder
 * already; not shown at the usual text size.
 */
export function PlaceholderLine(props: { text: string }) {
  return (
    <div className="placeholder-line" aria-hidden="true">
      {props.text}
    </div>
  );
}
