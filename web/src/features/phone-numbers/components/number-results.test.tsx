import { fireEvent, render, screen, within } from "@testing-library/react";
import { describe, expect, it, vi } from "vitest";
import { PHONE_RESULTS_PER_PAGE, PHONE_SEARCH_LIMIT } from "@shared/constants";
import { formatPhone } from "@shared/format";
import { PHONE_TEXT } from "@shared/messages";
import type { AvailableNumberView } from "@shared/schemas/phone-numbers";
import { NumberResults, pageCount, pageOf } from "./number-results";

const numbers: AvailableNumberView[] = Array.from({ length: PHONE_SEARCH_LIMIT }, (_, i) => ({
  phoneNumber: `+1305200${String(i).padStart(4, "0")}`,
  friendlyName: `(305) 200-${String(i).padStart(4, "0")}`,
  locality: "Miami",
  region: "FL",
  isoCountry: "US",
}));

const shownNumbers = () =>
  within(screen.getByRole("list", { name: PHONE_TEXT.availableNumbers }))
    .getAllByRole("listitem")
    .map((li) => li.querySelector("p")?.textContent);

describe("NumberResults", () => {
  it("shows 50 results 10 per page, and page 2 shows the next 10", () => {
    expect(PHONE_RESULTS_PER_PAGE).toBe(10);
    render(<NumberResults numbers={numbers} onBuy={vi.fn()} />);
    expect(screen.getByText(PHONE_TEXT.resultsFound(50))).toBeTruthy();
    expect(shownNumbers()).toEqual(numbers.slice(0, 10).map((n) => formatPhone(n.phoneNumber)));
    expect(screen.getAllByRole("button", { name: PHONE_TEXT.buyAction })).toHaveLength(10);

    fireEvent.click(screen.getByRole("button", { name: PHONE_TEXT.goToPage(2) }));
    expect(shownNumbers()).toEqual(numbers.slice(10, 20).map((n) => formatPhone(n.phoneNumber)));
    expect(screen.getByRole("button", { name: PHONE_TEXT.goToPage(2) }).getAttribute("aria-current")).toBe("page");

    fireEvent.click(screen.getByRole("button", { name: PHONE_TEXT.nextPage }));
    expect(shownNumbers()[0]).toBe(formatPhone(numbers[20].phoneNumber));
    fireEvent.click(screen.getByRole("button", { name: PHONE_TEXT.goToPage(5) }));
    expect(shownNumbers()).toHaveLength(10);
    expect((screen.getByRole("button", { name: PHONE_TEXT.nextPage }) as HTMLButtonElement).disabled).toBe(true);
  });

  it("hands the chosen number to onBuy, and disables buying when blocked", () => {
    const onBuy = vi.fn();
    const { rerender } = render(<NumberResults numbers={numbers} onBuy={onBuy} />);
    fireEvent.click(screen.getAllByRole("button", { name: PHONE_TEXT.buyAction })[3]);
    expect(onBuy).toHaveBeenCalledWith(numbers[3]);

    rerender(<NumberResults numbers={numbers} onBuy={onBuy} buyDisabled />);
    for (const button of screen.getAllByRole("button", { name: PHONE_TEXT.buyAction })) {
      expect((button as HTMLButtonElement).disabled).toBe(true);
    }
  });

  it("pages any count: a partial last page, no pager for one page", () => {
    expect(pageCount(50)).toBe(5);
    expect(pageCount(41)).toBe(5);
    expect(pageCount(0)).toBe(1);
    expect(pageOf(numbers.slice(0, 41), 5)).toHaveLength(1);
    expect(pageOf(numbers, 9)).toEqual(numbers.slice(40, 50));
    render(<NumberResults numbers={numbers.slice(0, 7)} onBuy={vi.fn()} />);
    expect(screen.queryByRole("button", { name: PHONE_TEXT.nextPage })).toBeNull();
  });
});
