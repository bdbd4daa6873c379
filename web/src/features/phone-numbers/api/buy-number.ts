// POST /api/twilio/buy, read into one of the purchase results of spec 2 §4: success (with or without
// the voice-platform copy), limit reached, or error. The mutation itself never fails.
import { useMutation, useQueryClient } from "@tanstack/react-query";
import { PHONE_TEXT } from "@shared/messages";
import type { BuyNumberResponse } from "@shared/schemas/phone-numbers";
import { apiJson, errorStatus } from "@web/lib/api";
import { AGENTS_KEY } from "@web/api/agents";
import { AVAILABLE_NUMBERS_PATH } from "./get-available-numbers";
import { MY_NUMBERS_KEY } from "@web/api/phone-numbers";
import { USAGE_STATS_KEY } from "@web/api/usage-stats";

export type PurchaseResult =
  | { kind: "success"; phoneNumber: string; vapiCreated: boolean }
  | { kind: "limit"; maxAllowed: number; currentCount: number }
  | { kind: "error"; message: string };

/** A 200 purchase or a 409 limit body: read loosely, since either may arrive. */
type BuyAnswer = Partial<Omit<BuyNumberResponse, "limitReached" | "error">> & { limitReached?: boolean; error?: unknown };

function limitResult(body: BuyAnswer): PurchaseResult | null {
  if (body.limitReached !== true) return null;
  return { kind: "limit", maxAllowed: Number(body.maxAllowed ?? 0), currentCount: Number(body.currentCount ?? 0) };
}

/** The result a failed request stands for: the limit body, the server's error, or a network failure. */
export function purchaseFailure(err: unknown): PurchaseResult {
  // apiRequest errors read "<status>: <body>"; anything else never reached the server.
  if (errorStatus(err) === null) return { kind: "error", message: PHONE_TEXT.networkError };
  const text = (err as Error).message.replace(/^\d{3}: /, "");
  let body: BuyAnswer | null = null;
  try {
    body = JSON.parse(text) as BuyAnswer;
  } catch {
    // not our JSON error shape (a proxy page, say)
  }
  if (body) {
    const limit = limitResult(body);
    if (limit) return limit;
    if (typeof body.error === "string" && body.error.trim()) return { kind: "error", message: body.error };
  }
  return { kind: "error", message: PHONE_TEXT.buyFailed };
}

export async function purchaseNumber(phoneNumber: string): Promise<PurchaseResult> {
  let body: BuyAnswer;
  try {
    body = await apiJson<BuyAnswer>("POST", "/api/twilio/buy", { phoneNumber, createInVapi: true });
  } catch (err) {
    return purchaseFailure(err);
  }
  const limit = limitResult(body);
  if (limit) return limit;
  if (!body.sid && !body.phoneNumber) {
    return { kind: "error", message: typeof body.error === "string" && body.error ? body.error : PHONE_TEXT.buyFailed };
  }
  return { kind: "success", phoneNumber: body.phoneNumber ?? phoneNumber, vapiCreated: body.vapiCreated === true };
}

export function useBuyNumber() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: purchaseNumber,
    onSuccess: async (result) => {
      if (result.kind === "error") return;
      // A purchase (or a limit answer) changes the count: refresh the list, the bar and the search.
      await Promise.all([
        queryClient.invalidateQueries({ queryKey: MY_NUMBERS_KEY }),
        queryClient.invalidateQueries({ queryKey: USAGE_STATS_KEY }),
        queryClient.invalidateQueries({ queryKey: AGENTS_KEY }),
        queryClient.invalidateQueries({
          predicate: (q) => typeof q.queryKey[0] === "string" && q.queryKey[0].startsWith(AVAILABLE_NUMBERS_PATH),
        }),
      ]);
    },
  });
}
