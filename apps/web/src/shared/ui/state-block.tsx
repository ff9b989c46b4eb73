import type { ReactNode } from "react";

/** A centred empty / error / info block: icon, title, text and an optional action (lists, placeholders). */
export function StateBlock(props: {
  icon: ReactNode;
  title: ReactNode;
  text?: ReactNode;
  action?: ReactNode;
  testId?: string;
}) {
  return (
    <div className="state-block" data-testid={props.testId}>
      <div className="state-block__icon">{props.icon}</div>
      <div className="state-block__title">{props.title}</div>
      {props.text ? <div className="state-block__text">{props.text}</div> : null}
      {props.action}
    </div>
  );
}
