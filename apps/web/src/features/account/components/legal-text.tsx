import { Fragment, type ReactNode } from "react";
import { useTranslation } from "react-i18next";
import { useAppConfig } from "../../../shared/api/app-config.ts";
import { navigateTo, PATHS } from "../../../shared/navigation/index.ts";

/** The seeded articles' ids, used until (or when) the app configuration does not name others (spec §7 config). */
const DEFAULT_ARTICLES = { agreement: "user-agreement", privacy: "privacy-policy" } as const;

/**
 * Splits a text with `<name>…</name>` tags (no nesting, no attributes) into strings and `wrap(name, inner)` nodes.
 * The first screen's only tagged sentence; react-i18next's `Trans` would add its HTML parser to that screen's code,
 * which must stay within its size budget.
 */
export function renderTagged(text: string, wrap: (name: string, inner: string) => ReactNode): ReactNode[] {
  const out: ReactNode[] = [];
  let last = 0;
  for (const m of text.matchAll(/<(\w+)>(.*?)<\/\1>/g)) {
    if (m.index > last) out.push(text.slice(last, m.index));
    out.push(<Fragment key={m.index}>{wrap(m[1], m[2])}</Fragment>);
    last = m.index + m[0].length;
  }
  if (last < text.length) out.push(text.slice(last));
  return out;
}

/**
 * A sentence of the Login or Register screen (`i18nKey`, with `<agreement>` and `<privacy>` tags in every language)
 * whose "User agreement" and "Privacy policy" open those articles (app configuration's userAgreementArticleId and
 * privacyPolicyArticleId, spec §7: Register asks to accept them, so they must open). A tap on a link never toggles a
 * surrounding checkbox; `beforeOpen` lets the screen keep its form for the way back.
 */
export function LegalText({
  i18nKey,
  testIdPrefix,
  beforeOpen,
}: {
  i18nKey: "login.privacyNote" | "register.privacyAccept";
  testIdPrefix: string;
  /** Runs before an article opens (e.g. keep the form's draft for the way back). */
  beforeOpen?: () => void;
}) {
  const config = useAppConfig();
  const open = (id: string) => (e: React.MouseEvent) => {
    e.preventDefault();
    e.stopPropagation();
    beforeOpen?.();
    navigateTo(PATHS.Article, { id });
  };
  const agreement = config.data?.userAgreementArticleId || DEFAULT_ARTICLES.agreement;
  const privacy = config.data?.privacyPolicyArticleId || DEFAULT_ARTICLES.privacy;
  const { t } = useTranslation();
  const links: Record<string, { id: string; testId: string; href: string }> = {
    agreement: { id: agreement, testId: `${testIdPrefix}-agreement`, href: "#agreement" },
    privacy: { id: privacy, testId: `${testIdPrefix}-privacy-link`, href: "#privacy" },
  };
  return (
    <>
      {renderTagged(t(i18nKey), (name, inner) => {
        const link = links[name];
        if (!link) return inner;
        return (
          <a href={link.href} className="link-inline" onClick={open(link.id)} data-testid={link.testId}>
            {inner}
          </a>
        );
      })}
    </>
  );
}
