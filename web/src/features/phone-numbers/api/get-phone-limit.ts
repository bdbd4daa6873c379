// GET /api/admin/config/phone-limit: the system-wide number limit per account (readable by every user).
import { queryOptions, useQuery } from "@tanstack/react-query";
import type { PhoneLimitResponse } from "@shared/schemas/phone-numbers";
import { apiJson } from "@web/lib/api";

export const PHONE_LIMIT_KEY = ["/api/admin/config/phone-limit"] as const;

export const getPhoneLimit = () => apiJson<PhoneLimitResponse>("GET", PHONE_LIMIT_KEY[0]);

export const phoneLimitQueryOptions = () => queryOptions({ queryKey: PHONE_LIMIT_KEY, queryFn: getPhoneLimit });

export const usePhoneLimit = () => useQuery(phoneLimitQueryOptions());
