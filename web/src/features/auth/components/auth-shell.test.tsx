import { render, screen, within } from "@testing-library/react";
import { describe, expect, it } from "vitest";
import { AUTH_TEXT } from "@shared/messages";
import { AuthShell } from "./auth-shell";

describe("AuthShell: the four things a user can do (docs/product/README.md#what-the-product-does)", () => {
  it("names them to assistive technology, in the large-screen panel and under the form on small screens", () => {
    render(
      <AuthShell>
        <p>form</p>
      </AuthShell>,
    );
    // Role queries skip aria-hidden subtrees: both lists must be reachable.
    const lists = screen.getAllByRole("list", { name: AUTH_TEXT.capabilitiesLabel });
    expect(lists).toHaveLength(2);
    for (const list of lists) {
      expect(within(list).getAllByRole("listitem").map((li) => li.textContent)).toEqual([...AUTH_TEXT.capabilities]);
    }
    // One list per breakpoint: the panel only from lg up, the one under the form only below it.
    const [panelList, formList] = lists;
    expect(panelList.closest("aside")?.className).toMatch(/(^| )hidden( |$).*lg:flex/);
    expect(formList.className).toContain("lg:hidden");
    expect(formList.closest("main")).not.toBeNull();
  });
});
