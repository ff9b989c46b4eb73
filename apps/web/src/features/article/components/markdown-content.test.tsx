import { cleanup, render, screen } from "@testing-library/react";
import { afterEach, describe, expect, it } from "vitest";
import { articleUrlTransform, MarkdownContent } from "./markdown-content.tsx";

afterEach(cleanup);

describe("article Markdown (no raw HTML, safe links)", () => {
  it("renders CommonMark and drops raw HTML", () => {
    render(
      <MarkdownContent
        testId="md"
        source={
          "## Salt\n\nTop up **salt** when low.\n\n<script>alert(1)</script>\n\n<img src=x onerror=alert(1)>\n\n- one\n- two"
        }
      />,
    );
    const root = screen.getByTestId("md");
    expect(root.querySelector("h2")?.textContent).toBe("Salt");
    expect(root.querySelector("strong")?.textContent).toBe("salt");
    expect(root.querySelectorAll("li")).toHaveLength(2);
    expect(root.querySelector("script")).toBeNull();
    expect(root.querySelector("img")).toBeNull();
    expect(root.innerHTML).not.toContain("onerror");
  });

  it("keeps http(s), mailto, tel and article links; strips javascript:", () => {
    expect(articleUrlTransform("https://example.com/a")).toBe("https://example.com/a");
    expect(articleUrlTransform("tel:114")).toBe("tel:114");
    expect(articleUrlTransform("article:salt")).toBe("article:salt");
    expect(articleUrlTransform("javascript:alert(1)")).toBe("");
    render(<MarkdownContent testId="md" source={"[x](javascript:alert(1)) [site](https://example.com)"} />);
    const links = screen.getByTestId("md").querySelectorAll("a");
    expect(links[0].getAttribute("href") ?? "").toBe("");
    expect(links[1].getAttribute("target")).toBe("_blank");
    expect(links[1].getAttribute("rel")).toBe("noopener noreferrer");
  });
});
