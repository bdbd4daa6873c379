import { QueryClientProvider } from "@tanstack/react-query";
import { fireEvent, render, screen } from "@testing-library/react";
import { afterEach, describe, expect, it, vi } from "vitest";
import { PHONE_TEXT, PLAN_TEXT, phoneLimitReachedMessage } from "@shared/messages";
import { createQueryClient } from "@web/lib/query-client";
import { PurchaseDialog } from "./purchase-dialog";

const json = (status: number, body: unknown) =>
  new Response(JSON.stringify(body), { status, headers: { "content-type": "application/json" } });

function renderDialog() {
  const onClose = vi.fn();
  render(
    <QueryClientProvider client={createQueryClient()}>
      <PurchaseDialog phoneNumber="+13055550123" onClose={onClose} />
    </QueryClientProvider>,
  );
  return { onClose };
}

afterEach(() => {
  vi.unstubAllGlobals();
});

describe("PurchaseDialog", () => {
  it("asks for confirmation, then buys with the voice-platform copy requested", async () => {
    const fetchMock = vi.fn(async () =>
      json(200, { sid: "PN1", phoneNumber: "+13055550123", phoneNumberId: 7, vapiCreated: true, vapiPhoneNumberId: "v1", limitReached: false, maxAllowed: 9, currentCount: 3 }),
    );
    vi.stubGlobal("fetch", fetchMock);
    renderDialog();
    expect(screen.getByText(PHONE_TEXT.confirmTitle)).toBeTruthy();
    expect(fetchMock).not.toHaveBeenCalled();

    fireEvent.click(screen.getByRole("button", { name: PHONE_TEXT.confirmPurchase }));
    expect(await screen.findByText(PHONE_TEXT.purchasedTitle)).toBeTruthy();
    expect(screen.getByText(PHONE_TEXT.vapiReady)).toBeTruthy();
    expect(screen.queryByText(PHONE_TEXT.vapiCopyFailed)).toBeNull();
    const [url, init] = fetchMock.mock.calls[0] as unknown as [string, RequestInit];
    expect(url).toBe("/api/twilio/buy");
    expect(JSON.parse(String(init.body))).toEqual({ phoneNumber: "+13055550123", createInVapi: true });
  });

  it("warns when the number could not be copied to the voice platform", async () => {
    vi.stubGlobal("fetch", vi.fn(async () => json(200, { sid: "PN1", phoneNumber: "+13055550123", vapiCreated: false, vapiPhoneNumberId: null, error: "VAPI down" })));
    renderDialog();
    fireEvent.click(screen.getByRole("button", { name: PHONE_TEXT.confirmPurchase }));
    expect(await screen.findByText(PHONE_TEXT.vapiCopyFailed)).toBeTruthy();
    expect(screen.getByText(PHONE_TEXT.purchasedTitle)).toBeTruthy();
  });

  it("shows 'Phone Number Limit Reached' with the max and current count", async () => {
    vi.stubGlobal(
      "fetch",
      vi.fn(async () =>
        json(409, { error: "Phone number limit reached", code: "phone_limit_reached", limitReached: true, maxAllowed: 9, currentCount: 9, requestId: "r" }),
      ),
    );
    renderDialog();
    fireEvent.click(screen.getByRole("button", { name: PHONE_TEXT.confirmPurchase }));
    expect(await screen.findByText(PHONE_TEXT.limitReached)).toBeTruthy();
    const message = screen.getByText(phoneLimitReachedMessage(9, 9));
    expect(message.textContent).toContain("9");
    expect(message.textContent).toMatch(/contact support/i);
  });

  it("shows 'Error' with the server's error", async () => {
    vi.stubGlobal("fetch", vi.fn(async () => json(400, { error: "This phone number is not available", code: "bad_request" })));
    renderDialog();
    fireEvent.click(screen.getByRole("button", { name: PHONE_TEXT.confirmPurchase }));
    expect(await screen.findByText("This phone number is not available")).toBeTruthy();
    expect(screen.getByText(PHONE_TEXT.errorTitle)).toBeTruthy();
  });

  it("says 'Network error' when the request never reaches the server", async () => {
    vi.stubGlobal("fetch", vi.fn(async () => Promise.reject(new TypeError("Failed to fetch"))));
    renderDialog();
    fireEvent.click(screen.getByRole("button", { name: PHONE_TEXT.confirmPurchase }));
    expect(await screen.findByText(PHONE_TEXT.networkError)).toBeTruthy();
  });

  it("falls back to 'Failed to buy number' when the failure carries no message", async () => {
    vi.stubGlobal("fetch", vi.fn(async () => new Response("<html>bad gateway</html>", { status: 502 })));
    renderDialog();
    fireEvent.click(screen.getByRole("button", { name: PHONE_TEXT.confirmPurchase }));
    expect(await screen.findByText(PHONE_TEXT.buyFailed)).toBeTruthy();
  });
});

describe("PurchaseDialog without a plan", () => {
  it("says a plan is needed and links to the plans", async () => {
    vi.stubGlobal(
      "fetch",
      vi.fn(async () =>
        json(402, { error: PLAN_TEXT.subscriptionRequired, code: "subscription_required", upgradeUrl: "/buy", requestId: "r" }),
      ),
    );
    renderDialog();
    fireEvent.click(screen.getByRole("button", { name: PHONE_TEXT.confirmPurchase }));
    expect(await screen.findByText(PLAN_TEXT.subscriptionRequired)).toBeTruthy();
    expect(screen.getByRole("link", { name: PLAN_TEXT.upgrade }).getAttribute("href")).toBe("/buy");
  });
});
