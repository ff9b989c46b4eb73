import type { TShareAnalysis } from "@aquapilot/contract/wire";
import { useQueryClient } from "@tanstack/react-query";
import { Button } from "antd-mobile";
import { ScanningOutline } from "antd-mobile-icons";
import { useCallback, useState } from "react";
import { useTranslation } from "react-i18next";
import { errorMessage } from "../../../shared/api/errors.ts";
import { queryKeys } from "../../../shared/api/query-keys.ts";
import { navigateTo, PATHS } from "../../../shared/navigation/index.ts";
import { type ScanTexts, scanQrCode } from "../../../shared/scan/index.tsx";
import { confirmDialog, toast, useSingleFlight } from "../../../shared/ui/index.ts";
import { joinByShareCode, previewShareCode } from "../api/analysis-code.ts";
import { familyKeys } from "../api/keys.ts";
import { setHomeFamily } from "../home-family.ts";
import { FamilyAvatar } from "./family-avatar.tsx";

/** The scanner's labels in the current language. */
export function useScanTexts(): ScanTexts {
  const { t } = useTranslation();
  return {
    title: t("familyJoin.scanTitle"),
    hint: t("familyJoin.scanHint"),
    cameraError: t("familyJoin.cameraError"),
    album: t("familyJoin.album"),
    noCodeInImage: t("familyJoin.noCodeInImage"),
    close: t("familyJoin.close"),
  };
}

/**
 * Joining a household by share code: check the code (analysis-code preview; an expired or tampered code
 * shows the server's message as a toast), confirm with the family's name, join, make it the home family and go to
 * the home tab, where its devices show. `scanAndJoin` scans first (native camera or the in-page scanner).
 */
export function useJoinFamily() {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  const scanTexts = useScanTexts();

  const enter = useCallback(
    async (family: TShareAnalysis) => {
      setHomeFamily({ id: family.familyId, name: family.familyName });
      // The home tab must load the new list (not show the cached one without this family).
      queryClient.removeQueries({ queryKey: queryKeys.families });
      await Promise.all([
        queryClient.invalidateQueries({ queryKey: familyKeys.all }),
        queryClient.invalidateQueries({ queryKey: queryKeys.familyDevicesAll }),
      ]);
      navigateTo(PATHS.Home, null, { replace: true });
    },
    [queryClient],
  );

  const joinOnce = useCallback(
    async (rawCode: string): Promise<boolean> => {
      const code = rawCode.trim();
      if (!code) {
        toast(t("familyJoin.codeRequired"));
        return false;
      }
      let preview: TShareAnalysis;
      try {
        preview = await previewShareCode(code);
      } catch (err) {
        toast(errorMessage(err, t("errors.requestFailed")));
        return false;
      }
      if (preview.alreadyMember) {
        toast(t("familyJoin.alreadyMember", { name: preview.familyName }));
        await enter(preview);
        return true;
      }
      const ok = await confirmDialog({
        title: t("familyJoin.confirmTitle"),
        content: <JoinPreview family={preview} />,
        confirmText: t("familyJoin.confirm"),
      });
      if (!ok) return false;
      try {
        const joined = await joinByShareCode(code);
        toast(
          joined.joined
            ? t("familyJoin.joined", { name: joined.familyName })
            : t("familyJoin.alreadyMember", { name: joined.familyName }),
        );
        await enter(joined);
        return true;
      } catch (err) {
        toast(errorMessage(err, t("errors.requestFailed")));
        return false;
      }
    },
    [t, enter],
  );

  // One join at a time: a second tap on Join (or a scan) while one is being checked or confirmed is dropped.
  const flight = useSingleFlight();
  const runJoin = flight.run;
  const join = useCallback(
    async (rawCode: string): Promise<boolean> => (await runJoin(() => joinOnce(rawCode))) ?? false,
    [runJoin, joinOnce],
  );

  const scanAndJoin = useCallback(async () => {
    const code = await scanQrCode(scanTexts);
    if (code) await join(code);
  }, [scanTexts, join]);

  return { join, scanAndJoin };
}

/** The confirmation's body: the family's avatar, name and who invites. */
function JoinPreview({ family }: { family: TShareAnalysis }) {
  const { t } = useTranslation();
  return (
    <div className="join-preview" data-testid="family-join-preview">
      <FamilyAvatar name={family.familyName} avatar={family.avatar} size={1.493} />
      <div className="join-preview__name" data-testid="family-join-name">
        {family.familyName}
      </div>
      <div className="join-preview__text">
        {t("familyJoin.confirmText", {
          inviter: family.inviterName,
          name: family.familyName,
          membersText: t("home.members", { count: family.memberCount }),
          devicesText: t("home.deviceCount", { count: family.deviceCount }),
        })}
      </div>
    </div>
  );
}

/**
 * The join panel: scan button, "or", a field to paste the code and the join button (NoFamily, FamilyList).
 * `initialCode`: the field's first value (a share code from a link that opened the app); empty by default.
 */
export function JoinFamilyPanel(props: { onJoined?: () => void; initialCode?: string }) {
  const { t } = useTranslation();
  const { join, scanAndJoin } = useJoinFamily();
  const [code, setCode] = useState(props.initialCode ?? "");
  const [busy, setBusy] = useState(false);
  const submit = async () => {
    setBusy(true);
    try {
      if (await join(code)) {
        setCode("");
        props.onJoined?.();
      }
    } finally {
      setBusy(false);
    }
  };
  return (
    <div className="join-panel" data-testid="family-join-panel">
      <div className="join-panel__intro">{t("familyJoin.intro")}</div>
      <Button block shape="rounded" color="primary" fill="outline" onClick={scanAndJoin} data-testid="family-join-scan">
        <ScanningOutline /> {t("familyJoin.scan")}
      </Button>
      <div className="join-panel__or">
        <span>{t("familyJoin.or")}</span>
      </div>
      <textarea
        className="join-panel__code"
        value={code}
        onChange={(e) => setCode(e.target.value)}
        placeholder={t("familyJoin.pastePlaceholder")}
        rows={3}
        spellCheck={false}
        autoCapitalize="off"
        autoCorrect="off"
        data-testid="family-join-code"
      />
      <Button
        block
        shape="rounded"
        color="primary"
        loading={busy}
        disabled={!code.trim()}
        onClick={submit}
        data-testid="family-join-submit"
      >
        {t("familyJoin.submit")}
      </Button>
    </div>
  );
}
