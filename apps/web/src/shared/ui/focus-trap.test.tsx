import { act, cleanup, fireEvent, render, screen, waitFor } from "@testing-library/react";
import { unstableSetRender } from "antd-mobile";
import { useState } from "react";
import { afterEach, beforeAll, describe, expect, it } from "vitest";
import { resetOverlayHistory } from "../navigation/overlay-history.ts";
import { antdRender } from "./antd-render.ts";
import { openDialogCount } from "./back-stack.ts";
import { showActionSheet, showConfirm, showDialog } from "./dialogs.tsx";
import { tabbableIn, trapFocus } from "./focus-trap.ts";
import { useBackClose } from "./overlay.tsx";
import { Dialog, Popup } from "./popup.tsx";

/** The focused element. */
const focused = () => document.activeElement;

/** Presses Tab (or Shift+Tab) on the focused element, as a keyboard does. */
function pressTab(shift = false): void {
  fireEvent.keyDown(document.activeElement ?? document.body, { key: "Tab", shiftKey: shift });
}

/** Presses Escape on the focused element. */
function pressEscape(): void {
  fireEvent.keyDown(document.activeElement ?? document.body, { key: "Escape" });
}

/** The element matching `selector` once it is in the document. */
const shown = <E extends Element>(selector: string) =>
  waitFor(() => {
    const el = document.querySelector<E>(selector);
    expect(el).not.toBeNull();
    return el as E;
  });

/** A page with an opener button and a bottom sheet of three buttons under a title; back closes the sheet. */
function SheetPage() {
  const [open, setOpen] = useState(false);
  useBackClose(open, () => setOpen(false));
  return (
    <>
      <button type="button" onClick={() => setOpen(true)}>
        Open sheet
      </button>
      <button type="button">Behind</button>
      <Popup visible={open} onMaskClick={() => setOpen(false)} bodyClassName="sheet" destroyOnClose>
        <div className="sheet__title">Choose a picture</div>
        <button type="button">First</button>
        <button type="button">Middle</button>
        <button type="button" onClick={() => setOpen(false)}>
          Last
        </button>
      </Popup>
    </>
  );
}

/** A page with an opener and an app Dialog holding a text field and two buttons. */
function DialogPage() {
  const [open, setOpen] = useState(false);
  return (
    <>
      <button type="button" onClick={() => setOpen(true)}>
        Open dialog
      </button>
      <Dialog
        visible={open}
        destroyOnClose
        title="Salt refilled"
        content={
          <div>
            <input aria-label="Level" defaultValue="25" />
            <button type="button" onClick={() => setOpen(false)}>
              Cancel
            </button>
            <button type="button">Save</button>
          </div>
        }
      />
    </>
  );
}

describe("dialogs and bottom sheets hold the keyboard focus (WCAG 2.4.3, 2.1.2)", () => {
  beforeAll(() => {
    // antd-mobile's imperative overlays render through the app's React 19 render (main.tsx).
    unstableSetRender(antdRender);
  });
  afterEach(() => {
    cleanup();
    document.body.innerHTML = "";
    resetOverlayHistory();
  });

  it("a bottom sheet: focus moves in, Tab cycles inside, and returns to the opener on close", async () => {
    render(<SheetPage />);
    const opener = screen.getByRole("button", { name: "Open sheet" });
    opener.focus();
    fireEvent.click(opener);
    const sheet = await shown<HTMLElement>(".adm-popup-body");
    await waitFor(() => expect(focused()?.textContent).toBe("First"));
    expect(sheet.getAttribute("role")).toBe("dialog");
    expect(sheet.getAttribute("aria-modal")).toBe("true");
    // Named by its title element.
    const labelledBy = sheet.getAttribute("aria-labelledby") ?? "";
    expect(document.getElementById(labelledBy)?.textContent).toBe("Choose a picture");

    const [first, , last] = [...sheet.querySelectorAll("button")];
    last?.focus();
    pressTab();
    expect(focused()).toBe(first);
    pressTab(true);
    expect(focused()).toBe(last);
    // In between, Tab goes to the next control.
    first?.focus();
    pressTab();
    expect(focused()?.textContent).toBe("Middle");

    // Focus landing behind the sheet is brought back.
    act(() => screen.getByRole("button", { name: "Behind", hidden: true }).focus());
    expect(sheet.contains(focused())).toBe(true);

    act(() => last?.click());
    await waitFor(() => expect(focused()).toBe(opener));
    // Closed, it is no modal dialog any more (it slides out).
    expect(sheet.getAttribute("aria-modal")).toBeNull();
  });

  it("Escape closes a sheet that back closes, and the focus returns to the opener", async () => {
    render(<SheetPage />);
    const opener = screen.getByRole("button", { name: "Open sheet" });
    opener.focus();
    fireEvent.click(opener);
    await waitFor(() => expect(focused()?.textContent).toBe("First"));
    expect(openDialogCount()).toBe(1);
    pressEscape();
    await waitFor(() => expect(openDialogCount()).toBe(0));
    await waitFor(() => expect(focused()).toBe(opener));
  });

  it("the app's Dialog: focus moves in (past its text field, to the dialog itself), Tab cycles, focus returns", async () => {
    render(<DialogPage />);
    const opener = screen.getByRole("button", { name: "Open dialog" });
    opener.focus();
    fireEvent.click(opener);
    const dialog = await shown<HTMLElement>('.adm-center-popup-wrap[role="dialog"]');
    // The first control is a text field: the dialog itself takes the focus, so no phone keyboard covers it.
    await waitFor(() => expect(focused()).toBe(dialog));
    expect(dialog.getAttribute("aria-modal")).toBe("true");
    expect(document.getElementById(dialog.getAttribute("aria-labelledby") ?? "")?.textContent).toBe("Salt refilled");

    const field = screen.getByRole("textbox", { name: "Level" });
    const save = screen.getByRole("button", { name: "Save" });
    pressTab();
    expect(focused()).toBe(field);
    pressTab(true);
    expect(focused()).toBe(save);
    pressTab();
    expect(focused()).toBe(field);

    act(() => screen.getByRole("button", { name: "Cancel" }).click());
    await waitFor(() => expect(focused()).toBe(opener));
  });

  it("an imperative dialog (showDialog): focus on its first button, Tab cycles, returns to the opener", async () => {
    const opener = document.createElement("button");
    opener.textContent = "Sync";
    document.body.appendChild(opener);
    opener.focus();
    let handler: { close: () => void } = { close: () => {} };
    await act(async () => {
      handler = showDialog({
        title: "Sync the clock?",
        content: "The device clock is 5 minutes late.",
        actions: [
          [
            { key: "no", text: "Not now" },
            { key: "yes", text: "Sync" },
          ],
        ],
      });
    });
    const footer = await shown<HTMLElement>(".adm-dialog-footer");
    const [notNow, sync] = [...footer.querySelectorAll<HTMLButtonElement>("button")];
    await waitFor(() => expect(focused()).toBe(notNow));
    // The text content is still centred as antd-mobile centres a text.
    expect(document.querySelector(".adm-dialog-content .adm-auto-center")?.textContent).toBe(
      "The device clock is 5 minutes late.",
    );
    pressTab(true);
    expect(focused()).toBe(sync);
    pressTab();
    expect(focused()).toBe(notNow);
    act(() => handler.close());
    expect(focused()).toBe(opener);
  });

  it("a confirm over an open sheet: the confirm holds the focus, then the sheet again, then the opener", async () => {
    render(<SheetPage />);
    const opener = screen.getByRole("button", { name: "Open sheet" });
    opener.focus();
    fireEvent.click(opener);
    const sheet = await shown<HTMLElement>(".adm-popup-body");
    await waitFor(() => expect(focused()?.textContent).toBe("First"));
    const middle = screen.getByRole("button", { name: "Middle" });
    act(() => middle.focus());

    let answer: boolean | null = null;
    await act(async () => {
      showConfirm({ content: "Delete it?" }, (yes) => {
        answer = yes;
      });
    });
    const footer = await shown<HTMLElement>(".adm-dialog-footer");
    const [cancel, confirm] = [...footer.querySelectorAll<HTMLButtonElement>("button")];
    await waitFor(() => expect(focused()).toBe(cancel));
    // Only the top dialog is exposed: the sheet under it is hidden from assistive technology meanwhile.
    expect(sheet.getAttribute("aria-hidden")).toBe("true");
    expect(screen.getByRole("dialog").contains(cancel ?? null)).toBe(true);
    pressTab();
    expect(focused()).toBe(confirm);
    pressTab();
    expect(focused()).toBe(cancel);
    act(() => cancel?.click());
    await waitFor(() => expect(answer).toBe(false));
    expect(focused()).toBe(middle);
    expect(sheet.hasAttribute("aria-hidden")).toBe(false);
    expect(sheet.contains(focused())).toBe(true);

    act(() => screen.getByRole("button", { name: "Last" }).click());
    await waitFor(() => expect(focused()).toBe(opener));
  });

  it("an action sheet: its actions become Tab stops that Enter taps, focus returns on close", async () => {
    const opener = document.createElement("button");
    document.body.appendChild(opener);
    opener.focus();
    const picked: string[] = [];
    let handler: { close: () => void } = { close: () => {} };
    await act(async () => {
      handler = showActionSheet({
        extra: "Language",
        cancelText: "Cancel",
        actions: [
          { key: "en", text: "English", onClick: () => picked.push("en") },
          { key: "de", text: "Deutsch", onClick: () => picked.push("de") },
        ],
      });
    });
    const sheet = await shown<HTMLElement>(".adm-popup-body");
    await waitFor(() => expect(focused()?.textContent).toBe("English"));
    expect(focused()?.getAttribute("role")).toBe("button");
    expect(document.getElementById(sheet.getAttribute("aria-labelledby") ?? "")?.textContent).toBe("Language");
    const stops = tabbableIn(sheet).map((el) => el.textContent);
    expect(stops).toEqual(["English", "Deutsch", "Cancel"]);
    // No option outside a listbox: the cancel action's wrapper is plain, the action inside it the button.
    expect(sheet.querySelectorAll('[role="option"]')).toHaveLength(0);
    pressTab(true);
    expect(focused()?.textContent).toBe("Cancel");
    pressTab();
    expect(focused()?.textContent).toBe("English");
    pressTab();
    fireEvent.keyDown(focused() as Element, { key: "Enter" });
    expect(picked).toEqual(["de"]);
    act(() => handler.close());
    expect(focused()).toBe(opener);
  });

  it("trapFocus: a container without controls takes the focus itself; the opener gone, the focus is left alone", () => {
    const opener = document.createElement("button");
    const box = document.createElement("div");
    box.textContent = "Nothing to press";
    document.body.append(opener, box);
    opener.focus();
    const release = trapFocus(box, { label: "Notice" });
    expect(focused()).toBe(box);
    expect(box.getAttribute("aria-label")).toBe("Notice");
    pressTab();
    expect(focused()).toBe(box);
    opener.remove();
    release();
    expect(focused()).not.toBe(opener);
    expect(box.hasAttribute("aria-modal")).toBe(false);
    expect(box.hasAttribute("tabindex")).toBe(false);
  });

  it("tabbableIn skips disabled, hidden, inert and tabIndex -1 controls, and takes one radio per group", () => {
    const box = document.createElement("div");
    box.innerHTML = `
      <button>a</button>
      <button disabled>disabled</button>
      <button style="display:none">hidden</button>
      <div inert><button>inert</button></div>
      <span tabindex="-1">minus</span>
      <span tabindex="0">b</span>
      <input type="radio" name="r" value="1" aria-label="r1">
      <input type="radio" name="r" value="2" aria-label="r2" checked>
      <a href="#x">c</a>
      <a>no href</a>`;
    document.body.appendChild(box);
    const names = tabbableIn(box).map((el) => el.textContent || el.getAttribute("aria-label"));
    expect(names).toEqual(["a", "b", "r2", "c"]);
  });

  it("names a dialog without a title by its message", async () => {
    await act(async () => {
      showConfirm({ content: "Sign out of AquaPilot?" }, () => {});
    });
    const dialog = await shown<HTMLElement>('[role="dialog"]');
    const label = document.getElementById(dialog.getAttribute("aria-labelledby") ?? "");
    expect(label?.textContent).toBe("Sign out of AquaPilot?");
  });
});
