import { render } from "@testing-library/react";
import { describe, expect, it } from "vitest";
import { renderTagged } from "./legal-text.tsx";

describe("renderTagged (the tagged legal sentence without Trans and its HTML parser)", () => {
  const wrap = (name: string, inner: string) => (name === "b" ? <b>{inner}</b> : inner);

  it("wraps each tag's text and keeps the text around it in order", () => {
    const { container } = render(<p>{renderTagged("Agree to <b>terms</b> and <b>privacy</b>.", wrap)}</p>);
    expect(container.textContent).toBe("Agree to terms and privacy.");
    expect([...container.querySelectorAll("b")].map((b) => b.textContent)).toEqual(["terms", "privacy"]);
  });

  it("leaves a text without tags whole, and a tag the caller does not know as its plain text", () => {
    expect(renderTagged("no tags here", wrap)).toEqual(["no tags here"]);
    const { container } = render(<p>{renderTagged("<x>plain</x> end", wrap)}</p>);
    expect(container.textContent).toBe("plain end");
    expect(container.querySelector("b")).toBeNull();
  });
});
