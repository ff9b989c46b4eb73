/** Id of the seeded privacy policy article (category "policy"); app-config-setting's default privacyPolicyArticleId. */
export const PRIVACY_POLICY_ARTICLE_ID = "privacy-policy";
/** Id of the seeded user agreement article (category "policy"); app-config-setting's default userAgreementArticleId. */
export const USER_AGREEMENT_ARTICLE_ID = "user-agreement";
