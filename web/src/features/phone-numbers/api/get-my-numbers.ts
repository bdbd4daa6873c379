// GET /api/twilio/my-numbers: the account's numbers with the agent each one rings.
import { queryOptions, useQuery } from "@tanstack/react-query";
import type { MyNumbersResponse } from "@shared/schemas/phone-numbers";
import { apiJson } from "@web/lib/api";

export const MY_NUMBERS_KEY = ["/api/twilio/my-numbers"] as const;

export const getMyNumbers = () => apiJson<MyNumbersResponse>("GET", MY_NUMBERS_KEY[0]);

export const myNumbersQueryOptions = () => queryOptions({ queryKey: MY_NUMBERS_KEY, queryFn: getMyNumbers });

export const useMyNumbers = () => useQuery(myNumbersQueryOptions());
