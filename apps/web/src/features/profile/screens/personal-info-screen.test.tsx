import { fireEvent, screen } from "@testing-library/react";
import { describe, expect, it } from "vitest";
import { renderScreen } from "../../../shared/testing/render.tsx";
import { PersonalInfoScreen } from "./personal-info-screen.tsx";

const profile = {
  userName: "ann",
  name: "Ann Lee",
  email: "ann@example.com",
  phoneNumber: null,
  countryCode: null,
  avatar: null,
  serviceRegion: 2,
};

describe("PersonalInfo screen", () => {
  it("shows the profile's fields, the unset ones as Not set, and the fixed region", async () => {
    await renderScreen(<PersonalInfoScreen />, { route: "/PersonalInfo", api: { getProfile: profile } });
    expect((await screen.findByTestId("personal-name")).textContent).toBe("Ann Lee");
    expect(screen.getByTestId("personal-user-name").textContent).toBe("ann");
    expect(screen.getByTestId("personal-email").textContent).toBe("ann@example.com");
    expect(screen.getByTestId("personal-phone").textContent).toBe("Not set");
    expect(screen.getByTestId("personal-region").textContent).toContain("Europe");
  });

  it("opens the editors from the rows", async () => {
    const view = await renderScreen(<PersonalInfoScreen />, { api: { getProfile: profile } });
    await screen.findByTestId("personal-name");
    fireEvent.click(screen.getByTestId("personal-row-name"));
    expect(view.navigatedTo()?.split("?")[0]).toBe("/UpdateUserName");
    expect(view.navigatedParams()).toEqual({ field: "name" });
    fireEvent.click(screen.getByTestId("personal-row-password"));
    expect(view.navigatedTo()).toBe("/UpdatePassword");
  });

  it("refuses a picked file that is not an image without uploading", async () => {
    const view = await renderScreen(<PersonalInfoScreen />, { api: { getProfile: profile } });
    const file = new File(["x"], "notes.txt", { type: "text/plain" });
    fireEvent.change(screen.getByTestId("personal-avatar-input"), { target: { files: [file] } });
    await view.findToast("Please choose a PNG, JPEG or WebP image");
    expect(view.api.callsTo("uploadAvatar")).toHaveLength(0);
  });
});
