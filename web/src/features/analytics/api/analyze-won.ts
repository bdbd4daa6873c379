// POST /api/analytics/won (docs/product/appointment-analysis.md#appointment-analysis "Analytics"): one run of the appointment analysis for a store and
// a New York date range. A mutation, not a query: each 'Run analysis' is a deliberate new request.
import { useMutation } from "@tanstack/react-query";
import type { AnalyticsWonBody } from "@shared/schemas/counts";
import { apiJson } from "@web/lib/api";

export const ANALYTICS_WON_PATH = "/api/analytics/won";

export const analyzeWon = (body: AnalyticsWonBody) => apiJson("POST", ANALYTICS_WON_PATH, body);

export const useAnalyzeWon = () => useMutation({ mutationFn: analyzeWon });
