import { act, cleanup, render, screen } from "@testing-library/react";
import { afterEach, describe, expect, it } from "vitest";
import { FallbackImage } from "./fallback-image.tsx";

const fallback = <span data-testid="fallback">A</span>;

describe("FallbackImage", () => {
  afterEach(cleanup);

  it("shows the image until it fails, then the fallback; a new source is tried again", () => {
    const { rerender } = render(<FallbackImage src="/a.png" alt="" fallback={fallback} testId="img" />);
    const img = screen.getByTestId("img");
    expect(img.getAttribute("src")).toBe("/a.png");
    expect(screen.queryByTestId("fallback")).toBeNull();
    act(() => {
      img.dispatchEvent(new Event("error"));
    });
    expect(screen.queryByTestId("img")).toBeNull();
    expect(screen.getByTestId("fallback")).toBeTruthy();
    rerender(<FallbackImage src="/b.png" alt="" fallback={fallback} testId="img" />);
    expect(screen.getByTestId("img").getAttribute("src")).toBe("/b.png");
  });

  it("shows the fallback without a source, and the image has no handler of its own", () => {
    const { rerender } = render(<FallbackImage src={null} alt="" fallback={fallback} testId="img" />);
    expect(screen.getByTestId("fallback")).toBeTruthy();
    rerender(<FallbackImage src="/a.png" alt="Photo" fallback={fallback} testId="img" />);
    const img = screen.getByTestId("img");
    expect(img.getAttribute("alt")).toBe("Photo");
    expect(img.getAttribute("onerror")).toBeNull();
  });
});
