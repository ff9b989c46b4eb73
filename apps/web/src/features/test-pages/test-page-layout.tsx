import { Button } from "antd-mobile";
import { type ReactNode, useState } from "react";
import { useTranslation } from "react-i18next";
import { PageShell } from "../../shared/ui/index.ts";
import "./test-pages.css";

/**
 * The shell of the test pages /Test, /Test2, /Test3 (spec §2 "Test pages"): a titled page with groups of buttons that
 * open each picker or dialog, and the last result printed (`data-testid="test-result"`, its source in
 * `test-result-source`), so browser tests can drive every picker.
 */

/** One button of a test page: its id (test id `test-open-<id>`), label and action resolving the printed result. */
export interface TestAction {
  id: string;
  label: string;
  /** Resolves the value to print; null/undefined prints "cancelled". */
  run: () => Promise<unknown>;
}

/** A titled group of buttons. */
export interface TestGroup {
  title: string;
  actions: TestAction[];
}

function show(value: unknown): string {
  if (typeof value === "string") return value;
  return JSON.stringify(value);
}

/** A test page: number n, groups of actions, optional extra content below. */
export function TestPageLayout(props: { n: number; groups: TestGroup[]; children?: ReactNode }) {
  const { t } = useTranslation();
  const [result, setResult] = useState<{ source: string; text: string } | null>(null);
  const run = async (action: TestAction) => {
    try {
      const value = await action.run();
      setResult({
        source: action.id,
        text: value === null || value === undefined ? t("testPages.cancelled") : show(value),
      });
    } catch (err) {
      setResult({ source: action.id, text: `Error: ${err instanceof Error ? err.message : String(err)}` });
    }
  };
  return (
    <PageShell title={t("testPages.title", { page: props.n })} testId={`test-page-${props.n}`}>
      <div className="test-page">
        <section className="test-page__result">
          <div className="test-page__result-label">
            {t("testPages.lastResult")}
            {result ? (
              <span className="test-page__result-source" data-testid="test-result-source">
                {result.source}
              </span>
            ) : null}
          </div>
          <output className="test-page__result-value" data-testid="test-result">
            {result ? result.text : t("testPages.none")}
          </output>
        </section>
        {props.groups.map((group) => (
          <section key={group.title} className="test-page__group">
            <h2 className="test-page__group-title">{group.title}</h2>
            <div className="test-page__buttons">
              {group.actions.map((action) => (
                <Button
                  key={action.id}
                  block
                  fill="outline"
                  color="primary"
                  data-testid={`test-open-${action.id}`}
                  onClick={() => void run(action)}
                >
                  {action.label}
                </Button>
              ))}
            </div>
          </section>
        ))}
        {props.children}
      </div>
    </PageShell>
  );
}
