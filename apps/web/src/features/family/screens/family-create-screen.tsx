import { Button } from "antd-mobile";
import { EnvironmentOutline, RightOutline } from "antd-mobile-icons";
import { useState } from "react";
import { useTranslation } from "react-i18next";
import { errorMessage } from "../../../shared/api/errors.ts";
import { type LocationResult, openAddressSelect } from "../../../shared/map/index.ts";
import { goBack, navigateTo, PATHS, useRouteParams } from "../../../shared/navigation/index.ts";
import { confirmDialog, PageShell, TextField, toast, useSingleFlight } from "../../../shared/ui/index.ts";
import { useCreateFamily } from "../api/create-family.ts";
import { AvatarPicker } from "../components/avatar-picker.tsx";
import { FamilyAvatar, PRESET_AVATARS } from "../components/family-avatar.tsx";
import { locationLine } from "../format.ts";
import { homeFamilyId, setHomeFamily } from "../home-family.ts";
import { validateFamilyName } from "../validation.ts";
import "../family.css";

/** Navigation params of FamilyCreate: `from` — the screen that opened it ("NoFamily" makes the new one home). */
export interface FamilyCreateParams {
  from?: "NoFamily";
}

/**
 * FamilyCreate (spec §2 /FamilyCreate): name (1–32 characters), address required (spec §5 "Select household
 * address", chosen on the map through `openAddressSelect()`), a preset avatar. The caller becomes the administrator.
 * A user's first household (or one created from NoFamily) becomes the home family and the app offers to add a device
 * to it now (→ /DeviceNetwork for it, with Home beneath) or later (Home); otherwise back to the list.
 */
export function FamilyCreateScreen() {
  const { t } = useTranslation();
  const { from } = useRouteParams<FamilyCreateParams>();
  const create = useCreateFamily();
  const [name, setName] = useState("");
  const [location, setLocation] = useState<LocationResult | null>(null);
  const [avatar, setAvatar] = useState<string>(PRESET_AVATARS[0]);
  const [pickAvatar, setPickAvatar] = useState(false);

  const chooseAddress = async () => {
    try {
      const picked = await openAddressSelect(
        location ? { longitude: location.longitude, latitude: location.latitude } : undefined,
      );
      if (picked) setLocation(picked);
    } catch (err) {
      toast(errorMessage(err, t("family.addressFailed")));
    }
  };

  // One household per tap series (a double tap creates one household).
  const flight = useSingleFlight();
  const submit = () =>
    flight.run(async () => {
      const nameError = validateFamilyName(name);
      if (nameError) return toast(t(nameError));
      if (!location?.address) return toast(t("family.addressRequired"));
      try {
        const family = await create.mutateAsync({
          name: name.trim(),
          address: location.address,
          longitude: location.longitude,
          latitude: location.latitude,
          province: location.province || null,
          city: location.city || null,
          district: location.district || null,
          avatar,
        });
        if (from === "NoFamily" || !homeFamilyId()) {
          setHomeFamily(family);
          // A first household (from NoFamily): offer to add a device to it now, or later from Home.
          const now = await confirmDialog({
            title: t("family.addDeviceNowTitle"),
            content: (
              <span data-testid="family-create-add-device-offer">
                {t("family.addDeviceNowText", { name: family.name })}
              </span>
            ),
            confirmText: t("family.addDeviceNow"),
            cancelText: t("family.addDeviceLater"),
          });
          navigateTo(PATHS.Home, null, { replace: true });
          if (now) navigateTo(PATHS.DeviceNetwork, { familyId: family.id });
        } else {
          toast(t("family.created"));
          goBack();
        }
      } catch (err) {
        toast(errorMessage(err, t("errors.requestFailed")));
      }
    });

  return (
    <PageShell title={t("routes.FamilyCreate")} tone="white" testId="family-create-screen" className="family-page">
      <div className="family-form">
        <button
          type="button"
          className="family-form__avatar"
          onClick={() => setPickAvatar(true)}
          data-testid="family-create-avatar"
        >
          <FamilyAvatar name={name} avatar={avatar} size={1.813} />
          <span>{t("family.chooseAvatar")}</span>
        </button>
        <TextField
          label={t("family.name")}
          value={name}
          onChange={setName}
          placeholder={t("family.namePlaceholder")}
          maxLength={32}
          testId="family-create-name"
        />
        <div className="field">
          <span className="field__label">{t("family.address")}</span>
          <button
            type="button"
            className={`address-picker ${location ? "" : "address-picker--empty"}`}
            onClick={chooseAddress}
            data-testid="family-create-address"
          >
            <EnvironmentOutline className="address-picker__icon" />
            <span className="address-picker__text">
              <span className="address-picker__main" data-testid="family-create-address-text">
                {location?.address || t("family.addressPlaceholder")}
              </span>
              {location ? <span className="address-picker__sub">{locationLine(location)}</span> : null}
            </span>
            <RightOutline className="address-picker__arrow" />
          </button>
        </div>
        <Button
          block
          color="primary"
          shape="rounded"
          size="large"
          className="family-form__submit"
          loading={flight.running}
          onClick={submit}
          data-testid="family-create-submit"
        >
          {t("family.submitCreate")}
        </Button>
      </div>
      <AvatarPicker
        visible={pickAvatar}
        current={avatar}
        onSelect={(a) => {
          setAvatar(a);
          setPickAvatar(false);
        }}
        onClose={() => setPickAvatar(false)}
      />
    </PageShell>
  );
}
