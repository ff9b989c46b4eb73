import { fireEvent, screen, waitFor } from "@testing-library/react";
import { describe, expect, it } from "vitest";
import { getItem } from "../../../shared/storage/index.ts";
import { fail, renderScreen, routeOf } from "../../../shared/testing/render.tsx";
import { UpdateUserNameScreen } from "./update-user-name-screen.tsx";

const profile = { userName: "ann", name: "Ann Lee", email: null, phoneNumber: null, avatar: null };
const input = () => screen.getByTestId("update-user-name-input") as HTMLInputElement;

describe("UpdateUserName screen", () => {
  it("edits the user name and keeps the stored session under the new one", async () => {
    const view = await renderScreen(<UpdateUserNameScreen />, {
      route: "/UpdateUserName",
      session: { userName: "ann" },
      api: { getProfile: profile, updateProfile: { ...profile, userName: "ann2" } },
    });
    await waitFor(() => expect(input().value).toBe("ann"));
    fireEvent.change(input(), { target: { value: "ann2" } });
    fireEvent.click(screen.getByTestId("update-user-name-submit"));
    await view.findToast("Saved");
    expect(view.api.lastCall("updateProfile").body).toEqual({ userName: "ann2" });
    expect(getItem("loginInfo")?.userName).toBe("ann2");
    expect(view.wentBack()).toBe(true);
  });

  it("edits the display name with {field: name}", async () => {
    const view = await renderScreen(<UpdateUserNameScreen />, {
      route: routeOf("/UpdateUserName", { field: "name" }),
      api: { getProfile: profile, updateProfile: { ...profile, name: "Ann" } },
    });
    await waitFor(() => expect(input().value).toBe("Ann Lee"));
    fireEvent.change(input(), { target: { value: "Ann" } });
    fireEvent.click(screen.getByTestId("update-user-name-submit"));
    await view.findToast("Saved");
    expect(view.api.lastCall("updateProfile").body).toEqual({ name: "Ann" });
  });

  it("cuts a pasted display name at the sign-up limit of 32 and says so", async () => {
    await renderScreen(<UpdateUserNameScreen />, {
      route: routeOf("/UpdateUserName", { field: "name" }),
      api: { getProfile: profile },
    });
    await waitFor(() => expect(input().value).toBe("Ann Lee"));
    fireEvent.change(input(), { target: { value: "A".repeat(40) } });
    expect(input().value).toBe("A".repeat(32));
    expect(screen.getByText("Up to 32 characters")).toBeTruthy();
  });

  it("shows the server's answer when the name is taken", async () => {
    const view = await renderScreen(<UpdateUserNameScreen />, {
      api: { getProfile: profile, updateProfile: () => fail(409, "This user name is taken") },
    });
    await waitFor(() => expect(input().value).toBe("ann"));
    fireEvent.change(input(), { target: { value: "bob" } });
    fireEvent.click(screen.getByTestId("update-user-name-submit"));
    await view.findToast("This user name is taken");
    expect(view.wentBack()).toBe(false);
  });
});
