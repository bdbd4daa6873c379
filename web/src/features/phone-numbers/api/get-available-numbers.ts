// GET /api/twilio/available-numbers: local numbers that can be bought, optionally in one area code.
import { queryOptions, useQuery } from "@tanstack/react-query";
import { PHONE_SEARCH_LIMIT } from "@shared/constants";
import { apiJson } from "@web/lib/api";

const AVAILABLE_NUMBERS_PATH = "/api/twilio/available-numbers";

export function availableNumbersUrl(areaCode: string): `${typeof AVAILABLE_NUMBERS_PATH}?${string}` {
  const params = new URLSearchParams({ country: "US", type: "Local", sms: "true", voice: "true", limit: String(PHONE_SEARCH_LIMIT) });
  if (areaCode) params.set("areaCode", areaCode);
  return `${AVAILABLE_NUMBERS_PATH}?${params}`;
}

export const availableNumberKeys = {
  search: (areaCode: string) => [availableNumbersUrl(areaCode)] as const,
  /** Every search, whatever its area code: the URL in the key starts with the path. */
  isSearch: (queryKey: readonly unknown[]) => typeof queryKey[0] === "string" && queryKey[0].startsWith(AVAILABLE_NUMBERS_PATH),
};

export const getAvailableNumbers = (areaCode: string) => apiJson("GET", availableNumbersUrl(areaCode));

/** `areaCode` null: nothing searched yet, so nothing is fetched. */
export const availableNumbersQueryOptions = (areaCode: string | null) =>
  queryOptions({
    queryKey: availableNumberKeys.search(areaCode ?? ""),
    queryFn: () => getAvailableNumbers(areaCode ?? ""),
    enabled: areaCode !== null,
    // Inventory changes as numbers are bought: every search asks again.
    staleTime: 0,
  });

export const useAvailableNumbers = (areaCode: string | null) => useQuery(availableNumbersQueryOptions(areaCode));
