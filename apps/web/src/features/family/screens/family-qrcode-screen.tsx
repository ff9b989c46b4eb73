import { Button, DotLoading } from "antd-mobile";
import { ClockCircleOutline, CloseCircleOutline, RedoOutline } from "antd-mobile-icons";
import { useState } from "react";
import { useTranslation } from "react-i18next";
import { navigateTo, PATHS, useRouteParams } from "../../../shared/navigation/index.ts";
import { PageShell, StateBlock, toast } from "../../../shared/ui/index.ts";
import { useFamily } from "../api/get-family.ts";
import { useFamilyShareCode } from "../api/get-family-share-code.ts";
import { FamilyAvatar } from "../components/family-avatar.tsx";
import { QrImage } from "../components/qr-image.tsx";
import { formatCountdown, shareCodeDeadline, useCountdown } from "../countdown.ts";
import type { FamilyParams } from "../params.ts";
import "../family.css";

/**
 * FamilyQrcode (spec §2 /FamilyQrcode, share by QR code): the QR image of a signed share code valid 15 minutes
 * (spec §4, §9) — the administrator's current one on each visit, a new one from the refresh button — with a mm:ss
 * countdown; once expired the code is greyed out with a refresh
 * prompt. The code can be copied for pasting. Administrator only (spec §6): members see why not.
 */
export function FamilyQrcodeScreen() {
  const { t } = useTranslation();
  const { familyId } = useRouteParams<FamilyParams>();
  const family = useFamily(familyId);
  const admin = family.data?.isAdmin === true;
  const [generation, setGeneration] = useState(0);
  const share = useFamilyShareCode(admin ? familyId : null, generation);
  const deadline = share.data ? shareCodeDeadline(share.data) : null;
  const left = useCountdown(deadline);
  const expired = left === 0;

  const refresh = () => {
    if (!share.isFetching) setGeneration((g) => g + 1); // a double tap asks for one new code
  };

  const copy = async () => {
    if (!share.data) return;
    try {
      await navigator.clipboard.writeText(share.data.code);
      toast(t("familyQr.copied"));
    } catch {
      toast(t("familyQr.copyFailed"));
    }
  };

  return (
    <PageShell
      title={t("routes.FamilyQrcode")}
      right={<span data-testid="family-qr-my-shares">{t("familyQr.myShares")}</span>}
      onRight={() => navigateTo(PATHS.FamilyShareList)}
      testId="family-qrcode-screen"
      className="family-page"
    >
      {family.data && !admin ? (
        <StateBlock testId="family-qr-admin-only" icon={<CloseCircleOutline />} title={t("familyQr.adminOnly")} />
      ) : (
        <div className="qr-card" data-testid="family-qr-card" data-expired={expired}>
          <div className="qr-card__family">
            <FamilyAvatar name={family.data?.name ?? ""} avatar={family.data?.avatar ?? null} size={1.067} />
            <div className="qr-card__who">
              <span className="qr-card__name" data-testid="family-qr-family-name">
                {family.data?.name ?? ""}
              </span>
              <span className="qr-card__title">{t("familyQr.title")}</span>
            </div>
          </div>
          <div className={`qr-card__code ${expired ? "qr-card__code--expired" : ""}`}>
            {share.data ? (
              <QrImage code={share.data.code} testId="family-qr-image" />
            ) : (
              <div className="qr-image">
                {share.isError ? <CloseCircleOutline className="qr-card__error" /> : <DotLoading color="primary" />}
              </div>
            )}
            {expired || share.isError ? (
              <button type="button" className="qr-card__overlay" onClick={refresh} data-testid="family-qr-expired">
                <RedoOutline className="qr-card__overlay-icon" />
                <span className="qr-card__overlay-title">
                  {share.isError ? t("familyQr.loadFailed") : t("familyQr.expired")}
                </span>
                <span className="qr-card__overlay-text">{t("familyQr.expiredHint")}</span>
              </button>
            ) : null}
          </div>
          <div className="qr-card__countdown" data-testid="family-qr-countdown-row">
            <ClockCircleOutline />
            {expired ? (
              <span>{t("familyQr.expired")}</span>
            ) : (
              <span>
                {t("familyQr.expiresIn")}{" "}
                <strong className="qr-card__time" data-testid="family-qr-countdown">
                  {left === null ? "--:--" : formatCountdown(left)}
                </strong>
              </span>
            )}
          </div>
          <div className="qr-card__validity">{t("familyQr.validity")}</div>
          <div className="qr-card__actions">
            <Button
              shape="rounded"
              color="primary"
              loading={share.isFetching}
              onClick={refresh}
              data-testid="family-qr-refresh"
            >
              <RedoOutline /> {t("familyQr.refresh")}
            </Button>
            <Button
              shape="rounded"
              color="primary"
              fill="outline"
              disabled={!share.data || expired}
              onClick={copy}
              data-testid="family-qr-copy"
            >
              {t("familyQr.copy")}
            </Button>
          </div>
          <div className="qr-card__hint">{t("familyQr.hint")}</div>
        </div>
      )}
    </PageShell>
  );
}
