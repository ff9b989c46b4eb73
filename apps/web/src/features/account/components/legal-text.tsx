import { Trans } from "react-i18next";
import { navigateTo, PATHS } from "../../../shared/navigation/index.js";
import { useAppConfig } from "../../settings/api/get-app-config.js";

/** The seeded articles' ids, used until (or when) the app configuration does not name others (spec §7 config). */
const DEFAULT_ARTICLES = { agreement: "user-agreement", privacy: "privacy-policy" } as const;

/**
 * A sentence of the Login or Register screen (`i18nKey`, with `<agreement>` and `<privacy>` tags in every language)
 * whose "User agreement" and "Privacy policy" open those articles (app configuration's userAgreementArticleId and
 * privacyPolicyArticleId, spec §7; issue 10 "legal links open the articles"). A tap on a link never toggles a
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
  return (
    <Trans
      i18nKey={i18nKey}
      components={{
        agreement: (
          <a
            href="#agreement"
            className="link-inline"
            onClick={open(agreement)}
            data-testid={`${testIdPrefix}-agreement`}
          />
        ),
        privacy: (
          <a
            href="#privacy"
            className="link-inline"
            onClick={open(privacy)}
            data-testid={`${testIdPrefix}-privacy-link`}
          />
        ),
      }}
    />
  );
}
