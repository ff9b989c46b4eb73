import { fireEvent, screen } from "@testing-library/react";
import { describe, expect, it } from "vitest";
import { fail, renderScreen, routeOf } from "../../../shared/testing/render.tsx";
import { RegisterScreen } from "./register-screen.tsx";

const type = (testId: string, value: string) => fireEvent.change(screen.getByTestId(testId), { target: { value } });

function fillForm() {
  type("register-account", "ann@example.com");
  type("register-password", "secret1");
  type("register-confirm-password", "secret1");
  type("register-code", "123456");
}

describe("Register screen", () => {
  it("shows the form and checks each field before calling the server", async () => {
    const view = await renderScreen(<RegisterScreen />, { route: "/Register", session: null });
    expect(screen.getByText("Create account")).toBeTruthy();
    fireEvent.click(screen.getByTestId("register-submit"));
    await view.findToast("Please enter your e-mail or phone number");
    fillForm();
    fireEvent.click(screen.getByTestId("register-submit"));
    await view.findToast("Please read and accept the privacy policy");
    expect(view.api.callsTo("register")).toHaveLength(0);
  });

  it("registers, signs in and goes home", async () => {
    const view = await renderScreen(<RegisterScreen />, {
      session: null,
      api: {
        register: null,
        applicationConfiguration: { auth: { grantedPolicies: {} }, currentUser: { userName: "ann" } },
      },
      raw: {
        "POST /connect/token": () => ({
          access_token: "A",
          refresh_token: "R",
          expires_in: 3600,
          token_type: "Bearer",
        }),
      },
    });
    fillForm();
    fireEvent.click(screen.getByRole("checkbox"));
    fireEvent.click(screen.getByTestId("register-submit"));
    await view.findToast("Registration successful");
    expect(view.api.lastCall("register").query).toMatchObject({
      bindType: "1",
      account: "ann@example.com",
      password: "secret1",
      code: "123456",
      name: "Ann",
    });
    expect(view.navigatedTo()).toBe("/index/home");
  });

  describe("display name", () => {
    const signInAnswers = {
      api: {
        register: null,
        applicationConfiguration: { auth: { grantedPolicies: {} }, currentUser: { userName: "ann" } },
      },
      raw: {
        "POST /connect/token": () => ({
          access_token: "A",
          refresh_token: "R",
          expires_in: 3600,
          token_type: "Bearer",
        }),
      },
    };
    const nameInput = () => screen.getByTestId("register-name") as HTMLInputElement;
    const submit = () => {
      fireEvent.click(screen.getByRole("checkbox"));
      fireEvent.click(screen.getByTestId("register-submit"));
    };

    it("follows the e-mail until edited, then keeps what the owner typed, trimmed", async () => {
      const view = await renderScreen(<RegisterScreen />, { session: null, ...signInAnswers });
      expect(screen.getByLabelText("Name")).toBe(nameInput());
      // What the name is for stays under the field (a placeholder went with the prefilled name and was cut in French).
      expect(nameInput().placeholder).toBe("");
      const hint = screen.getByTestId("register-name-hint");
      expect(hint.textContent).toBe("How your household members see you");
      expect(nameInput().getAttribute("aria-describedby")?.split(" ")).toContain(hint.id);
      expect(nameInput().value).toBe("");
      type("register-account", "first.last@example.com");
      expect(nameInput().value).toBe("First Last");
      type("register-name", "  Ann Lee ");
      type("register-account", "ann.lee@example.com");
      expect(nameInput().value).toBe("  Ann Lee ");
      type("register-password", "secret1");
      type("register-confirm-password", "secret1");
      type("register-code", "123456");
      submit();
      await view.findToast("Registration successful");
      expect(view.api.lastCall("register").query).toMatchObject({ account: "ann.lee@example.com", name: "Ann Lee" });
    });

    it("leaves the name out when the owner empties it (the server then makes one)", async () => {
      const view = await renderScreen(<RegisterScreen />, { session: null, ...signInAnswers });
      fillForm();
      type("register-name", "   ");
      submit();
      await view.findToast("Registration successful");
      expect(view.api.lastCall("register").query).not.toHaveProperty("name");
    });

    it("starts empty for a phone number and sends no name unless one is typed", async () => {
      const view = await renderScreen(<RegisterScreen />, { session: null, ...signInAnswers });
      fireEvent.click(screen.getByTestId("register-tab-phone"));
      type("register-account", "07400123456");
      expect(nameInput().value).toBe("");
      type("register-password", "secret1");
      type("register-confirm-password", "secret1");
      type("register-code", "123456");
      submit();
      await view.findToast("Registration successful");
      const query = view.api.lastCall("register").query;
      expect(query).toMatchObject({ bindType: "2", account: "7400123456", countryCode: "+44" });
      expect(query).not.toHaveProperty("name");
    });

    it("says 'Up to 32 characters' when a pasted name of 40 is cut, and sends the 32 kept", async () => {
      const view = await renderScreen(<RegisterScreen />, { session: null, ...signInAnswers });
      fillForm();
      const pasted = "Maximilian Alexander von Hohenberg-Lange";
      expect(pasted).toHaveLength(40);
      expect(screen.getByTestId("register-name-limit").textContent).toBe("");
      fireEvent.paste(nameInput(), { clipboardData: { getData: () => pasted } });
      type("register-name", pasted);
      expect(nameInput().value).toBe("Maximilian Alexander von Hohenbe");
      expect(screen.getByTestId("register-name-limit").textContent).toBe("Up to 32 characters");
      submit();
      await view.findToast("Registration successful");
      expect(view.api.lastCall("register").query).toMatchObject({ name: "Maximilian Alexander von Hohenbe" });
    });
  });

  it("signed in, opens the route asked for while signed out (handed on by Login)", async () => {
    const wanted = `/FamilyDetails?${new URLSearchParams({ params: JSON.stringify({ familyId: "f1" }) })}`;
    const view = await renderScreen(<RegisterScreen />, {
      route: routeOf("/Register", { returnTo: wanted }),
      session: null,
      api: {
        register: null,
        applicationConfiguration: { auth: { grantedPolicies: {} }, currentUser: { userName: "ann" } },
      },
      raw: {
        "POST /connect/token": () => ({
          access_token: "A",
          refresh_token: "R",
          expires_in: 3600,
          token_type: "Bearer",
        }),
      },
    });
    fillForm();
    fireEvent.click(screen.getByRole("checkbox"));
    fireEvent.click(screen.getByTestId("register-submit"));
    await view.findToast("Registration successful");
    expect(view.navigatedTo()).toBe(wanted);
  });

  it("shows the server's refusal", async () => {
    const view = await renderScreen(<RegisterScreen />, {
      session: null,
      api: { register: () => fail(400, "This e-mail is already registered") },
    });
    fillForm();
    fireEvent.click(screen.getByRole("checkbox"));
    fireEvent.click(screen.getByTestId("register-submit"));
    await view.findToast("This e-mail is already registered");
    expect(view.navigatedTo()).toBeNull();
  });
});
