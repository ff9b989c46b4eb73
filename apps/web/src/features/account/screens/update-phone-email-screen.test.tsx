import { fireEvent, screen } from "@testing-library/react";
import { describe, expect, it } from "vitest";
import { fail, renderScreen } from "../../../shared/testing/render.tsx";
import { UpdatePhoneEmailScreen } from "./update-phone-email-screen.tsx";

const profile = { userName: "ann", name: "Ann", email: "ann@example.com", phoneNumber: null, countryCode: null };
const type = (testId: string, value: string) => fireEvent.change(screen.getByTestId(testId), { target: { value } });

describe("UpdatePhoneEmail screen", () => {
  it("asks for the password first and refuses a wrong one", async () => {
    const view = await renderScreen(<UpdatePhoneEmailScreen />, {
      api: { getProfile: profile, updatePhoneOrEmailVerification: () => fail(400, "Wrong password") },
    });
    expect(screen.getByTestId("identity-step-verify")).toBeTruthy();
    fireEvent.click(screen.getByTestId("identity-verify"));
    await view.findToast("Please enter your password");
    type("identity-password", "nope");
    fireEvent.click(screen.getByTestId("identity-verify"));
    await view.findToast("Wrong password");
    expect(screen.getByTestId("identity-step-verify")).toBeTruthy();
  });

  it("verifies, then changes the e-mail with the ticket and the code", async () => {
    const view = await renderScreen(<UpdatePhoneEmailScreen />, {
      api: {
        getProfile: profile,
        updatePhoneOrEmailVerification: { ticket: "T1" },
        updateEmail: { ...profile, email: "new@example.com" },
      },
    });
    type("identity-password", "secret1");
    fireEvent.click(screen.getByTestId("identity-verify"));
    expect(await screen.findByTestId("identity-step-new")).toBeTruthy();
    expect(view.api.lastCall("updatePhoneOrEmailVerification").query).toEqual({ password: "secret1" });
    type("identity-account", "new@example.com");
    type("identity-code", "123456");
    fireEvent.click(screen.getByTestId("identity-submit"));
    expect(await screen.findByTestId("identity-step-done")).toBeTruthy();
    expect(view.api.lastCall("updateEmail").query).toEqual({ ticket: "T1", email: "new@example.com", code: "123456" });
  });
});
