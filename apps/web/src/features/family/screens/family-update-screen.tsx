import { Button } from "antd-mobile";
import { useEffect, useState } from "react";
import { useTranslation } from "react-i18next";
import { errorMessage } from "../../../shared/api/errors.ts";
import { goBack, useRouteParams } from "../../../shared/navigation/index.ts";
import { PageShell, TextField, toast } from "../../../shared/ui/index.ts";
import { useFamily } from "../api/get-family.ts";
import { useUpdateFamilyName } from "../api/update-family-name.ts";
import type { FamilyParams } from "../params.ts";
import { FAMILY_NAME_MAX, validateFamilyName } from "../validation.ts";
import "../family.css";

/**
 * FamilyUpdate (spec §2 /FamilyUpdate, rename): the household name, 1–32 characters; administrator only (spec §6;
 * the server refuses members). Saves with `update-family-name` and goes back.
 */
export function FamilyUpdateScreen() {
  const { t } = useTranslation();
  const { familyId } = useRouteParams<FamilyParams>();
  const family = useFamily(familyId);
  const rename = useUpdateFamilyName();
  const [name, setName] = useState("");
  const [touched, setTouched] = useState(false);

  useEffect(() => {
    if (family.data && !touched) setName(family.data.name);
  }, [family.data, touched]);

  const save = async () => {
    const problem = validateFamilyName(name);
    if (problem) return toast(t(problem));
    if (!familyId) return;
    if (family.data && name.trim() === family.data.name) {
      goBack();
      return;
    }
    try {
      await rename.mutateAsync({ familyId, name: name.trim() });
      toast(t("family.saved"));
      goBack();
    } catch (err) {
      toast(errorMessage(err, t("errors.requestFailed")));
    }
  };

  return (
    <PageShell
      title={t("routes.FamilyUpdate")}
      tone="white"
      right={<span data-testid="family-update-save-top">{t("family.save")}</span>}
      onRight={save}
      testId="family-update-screen"
      className="family-page"
    >
      <div className="family-form">
        <TextField
          label={t("family.name")}
          value={name}
          onChange={(v) => {
            setTouched(true);
            setName(v);
          }}
          placeholder={t("family.namePlaceholder")}
          maxLength={FAMILY_NAME_MAX}
          disabled={family.isPending}
          testId="family-update-name"
        />
        <div className="family-form__count">
          {name.trim().length}/{FAMILY_NAME_MAX}
        </div>
        <Button
          block
          color="primary"
          shape="rounded"
          size="large"
          className="family-form__submit"
          loading={rename.isPending}
          onClick={save}
          data-testid="family-update-save"
        >
          {t("family.save")}
        </Button>
      </div>
    </PageShell>
  );
}
