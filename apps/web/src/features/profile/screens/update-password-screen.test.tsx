import { fireEvent, screen } from "@testing-library/react";
import { describe, expect, it } from "vitest";
import { getItem } from "../../../shared/storage/index.ts";
import { fail, renderScreen } from "../../../shared/testing/render.tsx";
import { UpdatePasswordScreen } from "./update-password-screen.tsx";

const type = (testId: string, value: string) => fireEvent.change(screen.getByTestId(testId), { target: { value } });

describe("UpdatePassword screen", () => {
  it("checks the fields before calling the server", async () => {
    const view = await renderScreen(<UpdatePasswordScreen />, { route: "/UpdatePassword" });
    fireEvent.click(screen.getByTestId("update-password-submit"));
    await view.findToast("Please enter your current password");
    type("update-password-current", "old123");
    type("update-password-new", "old123");
    type("update-password-confirm", "old123");
    fireEvent.click(screen.getByTestId("update-password-submit"));
    await view.findToast("The new password must differ from the current one");
    expect(view.api.callsTo("changePassword")).toHaveLength(0);
  });

  it("changes the password, ends the session and goes to sign in", async () => {
    const view = await renderScreen(<UpdatePasswordScreen />, { api: { changePassword: null } });
    type("update-password-current", "old123");
    type("update-password-new", "new456");
    type("update-password-confirm", "new456");
    fireEvent.click(screen.getByTestId("update-password-submit"));
    await view.findToast("Password changed, please sign in again");
    expect(view.api.lastCall("changePassword").body).toEqual({ currentPassword: "old123", newPassword: "new456" });
    expect(getItem("token")).toBeNull();
    expect(view.navigatedTo()).toBe("/login");
  });

  it("shows the server's refusal of a wrong current password", async () => {
    const view = await renderScreen(<UpdatePasswordScreen />, {
      api: { changePassword: () => fail(400, "Incorrect password") },
    });
    type("update-password-current", "bad123");
    type("update-password-new", "new456");
    type("update-password-confirm", "new456");
    fireEvent.click(screen.getByTestId("update-password-submit"));
    await view.findToast("Incorrect password");
    expect(getItem("token")).not.toBeNull();
  });
});
