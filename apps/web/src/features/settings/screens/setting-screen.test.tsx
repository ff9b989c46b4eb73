import { fireEvent, screen, waitFor } from "@testing-library/react";
import { describe, expect, it } from "vitest";
import { currentLanguage } from "../../../shared/i18n/index.ts";
import { getItem } from "../../../shared/storage/index.ts";
import { clickInDialog, fail, renderScreen } from "../../../shared/testing/render.tsx";
import { SettingScreen } from "./setting-screen.tsx";

const units = { volumeUnit: "L", hardnessUnit: "mgL" };

describe("Setting screen", () => {
  it("lists the five languages with English checked, and the account security entries", async () => {
    const view = await renderScreen(<SettingScreen />, { route: "/Setting", api: { getUnitPreferences: units } });
    expect(screen.getByTestId("setting-language-en").getAttribute("aria-checked")).toBe("true");
    expect(screen.getByTestId("setting-language-fr").getAttribute("aria-checked")).toBe("false");
    expect(screen.getByText("Français")).toBeTruthy();
    fireEvent.click(screen.getByTestId("setting-delete-account"));
    expect(view.navigatedTo()).toBe("/DeleteAccount");
  });

  it("switches the language and tells the server", async () => {
    const view = await renderScreen(<SettingScreen />, {
      api: { getUnitPreferences: units, changeLanguageType: null },
    });
    fireEvent.click(screen.getByTestId("setting-language-fr"));
    await waitFor(() => expect(view.api.callsTo("changeLanguageType")).toHaveLength(1));
    expect(view.api.lastCall("changeLanguageType").body).toEqual({ languageType: "fr" });
    expect(currentLanguage()).toBe("fr");
    expect(getItem("lang")).toBe("fr");
  });

  it("saves a unit choice and puts the old one back when the server refuses", async () => {
    const view = await renderScreen(<SettingScreen />, {
      api: { getUnitPreferences: units, setUnitPreferences: () => fail(400, "Unknown unit") },
    });
    await waitFor(() => expect(view.api.callsTo("getUnitPreferences")).toHaveLength(1));
    fireEvent.click(await screen.findByTestId("setting-units-volume-gal"));
    await view.findToast("Unknown unit");
    expect(view.api.lastCall("setUnitPreferences").body).toEqual({ volumeUnit: "gal" });
  });

  it("clears the cache after the confirmation and keeps the session", async () => {
    const view = await renderScreen(<SettingScreen />, { api: { getUnitPreferences: units } });
    fireEvent.click(screen.getByTestId("setting-clear-cache"));
    await clickInDialog("Confirm");
    await view.findToast("Cache cleared");
    expect(getItem("token")).not.toBeNull();
  });
});
