// POST /api/twilio/buy, read into one of the purchase results of docs/product/README.md#states-and-flows: success (with or without
// the voice-platform copy), limit reached, or error. The mutation itself never fails.
import { useMutation, useQueryClient } from "@tanstack/react-query";
import { PHONE_TEXT } from "@shared/messages";
import type { BuyNumberResponse } from "@shared/schemas/phone-numbers";
import { isPlanError } from "@web/components/plans/plan-error";
import { ApiError, apiJson } from "@web/lib/api";
import { agentKeys } from "@web/api/agents";
import { myNumberKeys } from "@web/api/phone-numbers";
import { usageStatsKeys } from "@web/api/usage-stats";
import { availableNumberKeys } from "./get-available-numbers";

export type PurchaseResult =
  | { kind: "success"; phoneNumber: string; vapiCreated: boolean }
  | { kind: "limit"; maxAllowed: number; currentCount: number }
  | { kind: "error"; message: string; /** The plan refused it: the result offers the plans. */ upgrade?: boolean };

/** A 200 purchase or a 409 limit body: read loosely, since either may arrive. */
type BuyAnswer = Partial<Omit<BuyNumberResponse, "limitReached" | "error">> & { limitReached?: boolean; error?: unknown };

function limitResult(body: BuyAnswer): PurchaseResult | null {
  if (body.limitReached !== true) return null;
  return { kind: "limit", maxAllowed: Number(body.maxAllowed ?? 0), currentCount: Number(body.currentCount ?? 0) };
}

/** The result a failed request stands for: the limit body, the server's error, or a network failure. */
export function purchaseFailure(err: unknown): PurchaseResult {
  // Anything but an ApiError never reached the server.
  if (!(err instanceof ApiError)) return { kind: "error", message: PHONE_TEXT.networkError };
  if (err.body) {
    // The 409 limit answer is our error body with the limit figures beside it.
    const limit = limitResult(err.body as BuyAnswer);
    if (limit) return limit;
    if (err.body.error.trim()) return { kind: "error", message: err.body.error, upgrade: isPlanError(err) };
  }
  return { kind: "error", message: PHONE_TEXT.buyFailed };
}

export async function purchaseNumber(phoneNumber: string): Promise<PurchaseResult> {
  let body: BuyAnswer;
  try {
    body = await apiJson("POST", "/api/twilio/buy", { phoneNumber, createInVapi: true });
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
        queryClient.invalidateQueries({ queryKey: myNumberKeys.all }),
        queryClient.invalidateQueries({ queryKey: usageStatsKeys.all }),
        queryClient.invalidateQueries({ queryKey: agentKeys.all }),
        queryClient.invalidateQueries({ predicate: (q) => availableNumberKeys.isSearch(q.queryKey) }),
      ]);
    },
  });
}
