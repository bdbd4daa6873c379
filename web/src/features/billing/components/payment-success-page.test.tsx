// /payments/success: the plan bought is shown; the password step only for the session that may set
// the account's first password; an account signed in already (an upgrade) goes to its dashboard.
import { render, screen, waitFor } from "@testing-library/react";
import { createMemoryHistory, createRootRoute, createRoute, createRouter, Outlet, RouterProvider } from "@tanstack/react-router";
import { afterEach, describe, expect, it, vi } from "vitest";
import { PAYMENT_TEXT } from "@shared/messages";
import type { CheckoutSessionView } from "@shared/schemas/billing";
import { PaymentSuccessPage } from "./payment-success-page";

const signedIn = vi.hoisted(() => ({ user: null as { email: string } | null }));
vi.mock("@web/lib/auth/auth-provider", () => ({
  useAuth: () => ({ user: signedIn.user, whenSettled: async () => signedIn.user, signIn: vi.fn() }),
}));

const session = (over: Partial<CheckoutSessionView> = {}): CheckoutSessionView => ({
  id: "cs_local_abcdefgh",
  status: "complete",
  amount_total: 107989,
  currency: "usd",
  customer_email: "buyer@example.com",
  payment_status: "paid",
  payment_intent: "pi_1",
  customer_details: { name: "Pat" },
  plan_name: "Pro",
  interval: "year",
  needs_password: false,
  ...over,
});

function renderAt(view: CheckoutSessionView) {
  vi.stubGlobal("fetch", vi.fn(async () => Response.json({ session: view })));
  const root = createRootRoute({ component: Outlet });
  const success = createRoute({ getParentRoute: () => root, path: "/payments/success", component: () => <PaymentSuccessPage sessionId={view.id} /> });
  const dashboard = createRoute({ getParentRoute: () => root, path: "/dashboard", component: () => <p>dashboard page</p> });
  const router = createRouter({ routeTree: root.addChildren([success, dashboard]), history: createMemoryHistory({ initialEntries: ["/payments/success"] }) });
  render(<RouterProvider router={router} />);
  return router;
}

afterEach(() => {
  vi.unstubAllGlobals();
  signedIn.user = null;
});

describe("PaymentSuccessPage", () => {
  it("shows the plan and interval the session bought with the amount", async () => {
    renderAt(session());
    expect((await screen.findByTestId("payment-plan")).textContent).toBe("Pro · Annual");
    expect(screen.getByTestId("payment-amount").textContent).toBe("$1,079.89");
    expect(screen.queryByText(PAYMENT_TEXT.createPasswordTitle)).toBeNull();
  });

  it("tells a payer who is not signed in to activate from the mail or sign in, never sending them to the dashboard", async () => {
    renderAt(session());
    await screen.findByTestId("payment-plan");
    expect(screen.getByText(PAYMENT_TEXT.activateOrSignIn)).toBeTruthy();
    expect(screen.queryByRole("button", { name: PAYMENT_TEXT.goToDashboard })).toBeNull();
    expect(screen.getByRole("link", { name: PAYMENT_TEXT.signIn }).getAttribute("href")).toBe("/auth?login=1");
  });

  it("asks for a password only when the session may set the account's first one", async () => {
    renderAt(session({ needs_password: true }));
    expect(await screen.findByText(PAYMENT_TEXT.createPasswordTitle)).toBeTruthy();
  });

  it("takes the signed-in account that paid (an upgrade) to its dashboard instead of asking for a password", async () => {
    signedIn.user = { email: "Buyer@example.com" };
    const router = renderAt(session({ plan_name: "Basic", interval: "month" }));
    await waitFor(() => expect(router.state.location.pathname).toBe("/dashboard"));
    expect(await screen.findByText("dashboard page")).toBeTruthy();
    expect(screen.queryByText(PAYMENT_TEXT.createPasswordTitle)).toBeNull();
  });
});
