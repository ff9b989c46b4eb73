import { fireEvent, screen } from "@testing-library/react";
import { describe, expect, it } from "vitest";
import { getItem } from "../../../shared/storage/index.ts";
import { clickInDialog, fail, renderScreen } from "../../../shared/testing/render.tsx";
import { DeleteAccountScreen } from "./delete-account-screen.tsx";

const profile = {
  userName: "ann",
  name: "Ann",
  email: "ann@example.com",
  phoneNumber: "612345678",
  countryCode: "+33",
};

describe("DeleteAccount screen", () => {
  it("warns and offers the account's e-mail and phone for the code", async () => {
    await renderScreen(<DeleteAccountScreen />, { api: { getProfile: profile } });
    expect(screen.getByText("Deleting your account cannot be undone")).toBeTruthy();
    expect((await screen.findByTestId("delete-account-target")).textContent).toBe(
      "A security code will be sent to ann@example.com.",
    );
    fireEvent.click(screen.getByTestId("delete-account-via-phone"));
    expect(screen.getByTestId("delete-account-target").textContent).toContain("+33 612345678");
  });

  it("sends the code by the chosen channel", async () => {
    const view = await renderScreen(<DeleteAccountScreen />, {
      api: { getProfile: profile, sendUserIdentityVerification: { sentTo: "a***@example.com" } },
    });
    await screen.findByTestId("delete-account-via-email");
    fireEvent.click(screen.getByTestId("delete-account-send-code"));
    expect((await screen.findByTestId("delete-account-sent-to")).textContent).toBe("Code sent to a***@example.com");
    expect(view.api.lastCall("sendUserIdentityVerification").query).toMatchObject({ purpose: "delete-account" });
  });

  it("refuses a short code, then deletes after the confirmation and signs out", async () => {
    const view = await renderScreen(<DeleteAccountScreen />, { api: { getProfile: profile, logOff: null } });
    await screen.findByTestId("delete-account-via-email");
    fireEvent.change(screen.getByTestId("delete-account-code"), { target: { value: "123" } });
    fireEvent.click(screen.getByTestId("delete-account-submit"));
    await view.findToast("The verification code has 6 digits");
    fireEvent.change(screen.getByTestId("delete-account-code"), { target: { value: "123456" } });
    fireEvent.click(screen.getByTestId("delete-account-submit"));
    await clickInDialog("Delete account");
    await view.findToast("Your account has been deleted");
    expect(view.api.lastCall("logOff").query).toEqual({ code: "123456" });
    expect(getItem("token")).toBeNull();
    expect(view.navigatedTo()).toBe("/login");
  });

  it("shows the server's refusal of a wrong code", async () => {
    const view = await renderScreen(<DeleteAccountScreen />, {
      api: { getProfile: profile, logOff: () => fail(400, "Wrong security code") },
    });
    await screen.findByTestId("delete-account-via-email");
    fireEvent.change(screen.getByTestId("delete-account-code"), { target: { value: "654321" } });
    fireEvent.click(screen.getByTestId("delete-account-submit"));
    await clickInDialog("Delete account");
    await view.findToast("Wrong security code");
    expect(view.toasts()).toContain("Wrong security code");
    // Refused: the account is kept and the screen stays, the code ready to be corrected.
    expect(screen.getByTestId("delete-account-submit")).toBeTruthy();
  });
});
