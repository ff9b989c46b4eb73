import { fireEvent, screen } from "@testing-library/react";
import { describe, expect, it } from "vitest";
import { fail, renderScreen } from "../../../shared/testing/render.tsx";
import { FindPasswordScreen } from "./find-password-screen.tsx";

const type = (testId: string, value: string) => fireEvent.change(screen.getByTestId(testId), { target: { value } });

describe("FindPassword screen", () => {
  it("checks the e-mail before sending a code, then sends it", async () => {
    const view = await renderScreen(<FindPasswordScreen />, {
      route: "/FindPassword",
      session: null,
      api: { forgetPasswordSendEmailCode: null },
    });
    expect(screen.getByText(/We will send you a verification code/)).toBeTruthy();
    type("find-password-account", "not-an-email");
    fireEvent.click(screen.getByText("Send code"));
    await view.findToast("Please enter a valid e-mail address");
    expect(view.api.calls).toHaveLength(0);
    type("find-password-account", "ann@example.com");
    fireEvent.click(screen.getByText("Send code"));
    await view.findToast("Verification code sent");
    expect(view.api.lastCall("forgetPasswordSendEmailCode").query).toEqual({ email: "ann@example.com" });
  });

  /** Account, code and new password "secret1", with `confirm` as its confirmation. */
  const fillForm = (confirm: string) => {
    type("find-password-account", "ann@example.com");
    type("find-password-code", "123456");
    type("find-password-password", "secret1");
    type("find-password-confirm", confirm);
  };

  it("resets the password and goes to sign in", async () => {
    const view = await renderScreen(<FindPasswordScreen />, { session: null, api: { resetPassword: null } });
    fillForm("secret2");
    fireEvent.click(screen.getByTestId("find-password-submit"));
    await view.findToast("Passwords do not match");
    type("find-password-confirm", "secret1");
    fireEvent.click(screen.getByTestId("find-password-submit"));
    await view.findToast("Password reset, please sign in with the new password");
    expect(view.api.lastCall("resetPassword").query).toMatchObject({
      account: "ann@example.com",
      code: "123456",
      password: "secret1",
      confirmPassword: "secret1",
    });
    expect(view.navigatedTo()).toBe("/login");
  });

  it("shows the server's refusal", async () => {
    const view = await renderScreen(<FindPasswordScreen />, {
      session: null,
      api: { resetPassword: () => fail(400, "The code has expired") },
    });
    fillForm("secret1");
    fireEvent.click(screen.getByTestId("find-password-submit"));
    await view.findToast("The code has expired");
    expect(view.toasts()).toContain("The code has expired");
    // Refused: the form stays for another try.
    expect(screen.getByTestId("find-password-submit")).toBeTruthy();
  });
});
