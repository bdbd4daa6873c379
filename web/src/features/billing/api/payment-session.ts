// After payment: the session lookup, the first password (with the session as proof) and the
// activation link's resend.
import { apiJson } from "@web/lib/api";

export const CHECKOUT_SESSION_PATH = "/api/stripe/checkout-session";

export const getCheckoutSession = (sessionId: string) =>
  apiJson("GET", `${CHECKOUT_SESSION_PATH}/${encodeURIComponent(sessionId)}`).then((r) => r.session);

export const setFirstPassword = (body: { email: string; password: string; sessionId: string }) =>
  apiJson("POST", "/api/admin/public/update-user-password", body);

export const resendActivation = (email: string) => apiJson("POST", "/api/admin/public/resend-activation", { email });
