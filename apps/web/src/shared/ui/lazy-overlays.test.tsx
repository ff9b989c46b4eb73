import { waitFor } from "@testing-library/react";
import { unstableSetRender } from "antd-mobile";
import { afterEach, beforeAll, describe, expect, it, vi } from "vitest";
import { resetOverlayHistory } from "../navigation/overlay-history.ts";
import { antdRender } from "./antd-render.ts";
import { handleBack, openDialogCount } from "./back-stack.ts";
import { confirmLazily, pickFromListLazily } from "./lazy-overlays.ts";

/** The shown element matching `selector`, once it is there. */
const shown = <E extends Element>(selector: string) =>
  waitFor(() => {
    const el = document.querySelector<E>(selector);
    expect(el).not.toBeNull();
    return el as E;
  });

/** How many confirm dialogs the document holds (closed ones linger after their leave animation here). */
const dialogCount = () => document.querySelectorAll(".adm-dialog-footer").length;

/** The buttons, [cancel, confirm], of the dialog that shows after `before` dialogs were in the document. */
const dialogButtons = (before: number) =>
  waitFor(() => {
    const footer = document.querySelectorAll(".adm-dialog-footer")[before];
    expect(footer).toBeDefined();
    return [...(footer as Element).querySelectorAll<HTMLButtonElement>("button")];
  });

describe("overlays whose code loads on the call, off the first screen, in the back stack (spec §2)", () => {
  // antd-mobile's imperative Dialog renders through the app's React 19 shim (main.tsx).
  beforeAll(() => {
    unstableSetRender(antdRender);
  });
  afterEach(() => {
    resetOverlayHistory();
    vi.restoreAllMocks();
  });

  it("confirmLazily: true on confirm, false on cancel; each takes one back entry and gives it back", async () => {
    let before = dialogCount();
    const yes = confirmLazily({ content: "Sync the clock?" });
    expect(openDialogCount()).toBe(1);
    (await dialogButtons(before))[1]?.click();
    await expect(yes).resolves.toBe(true);
    expect(openDialogCount()).toBe(0);

    before = dialogCount();
    const no = confirmLazily({ content: "Sync the clock?" });
    (await dialogButtons(before))[0]?.click();
    await expect(no).resolves.toBe(false);
    expect(openDialogCount()).toBe(0);
  });

  it("a back closes it like cancel, also while its code is still loading, and the page's own back does not run", async () => {
    const pageBack = vi.fn();
    const early = confirmLazily({ content: "Enter vacation mode?" });
    expect(handleBack(pageBack)).toBe("dialog");
    await expect(early).resolves.toBe(false);

    const before = dialogCount();
    const late = confirmLazily({ content: "Enter vacation mode?" });
    await dialogButtons(before);
    expect(handleBack(pageBack)).toBe("dialog");
    await expect(late).resolves.toBe(false);
    expect(pageBack).not.toHaveBeenCalled();
    expect(openDialogCount()).toBe(0);
  });

  it("pickFromListLazily: the tapped option; null after a back, even one pressed before its code arrived", async () => {
    const options = [
      { value: "3", label: "3 days" },
      { value: "7", label: "7 days" },
    ];
    const picked = pickFromListLazily({ options, testId: "reminder" });
    expect(openDialogCount()).toBe(1);
    (await shown<HTMLButtonElement>('[data-testid="reminder-option-7"]')).click();
    await expect(picked).resolves.toEqual([{ value: "7", label: "7 days" }]);
    await waitFor(() => expect(openDialogCount()).toBe(0));

    const early = pickFromListLazily({ options, testId: "reminder" });
    expect(handleBack()).toBe("dialog");
    await expect(early).resolves.toBeNull();

    const late = pickFromListLazily({ options, testId: "reminder" });
    await shown('[data-testid="reminder-option-3"]');
    expect(handleBack()).toBe("dialog");
    await expect(late).resolves.toBeNull();
    expect(openDialogCount()).toBe(0);
  });
});
