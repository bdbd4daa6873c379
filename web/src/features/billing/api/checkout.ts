// The checkout's calls (docs/product/api.md#api): the lead, then a trial or a payment session.
import type { LeadBody } from "@shared/schemas/billing";
import { apiJson } from "@web/lib/api";

export const submitLead = (lead: LeadBody) => apiJson("POST", "/api/leads/leads", lead);

export const startTrial = (body: { email: string; priceId: string; first_name: string; last_name: string; company?: string }) =>
  apiJson("POST", "/api/stripe/start-trial", body);

export const createCheckoutSession = (body: { priceId: string; quantity: number; successUrl: string; cancelUrl: string; customerEmail?: string; company?: string }) =>
  apiJson("POST", "/api/stripe/create-checkout-session", body);
