// GET /api/admin/config/phone-limit: the system-wide number limit per account (readable by every user).
import { queryOptions, useQuery } from "@tanstack/react-query";
import { apiJson } from "@web/lib/api";

const PHONE_LIMIT_PATH = "/api/admin/config/phone-limit";

export const phoneLimitKeys = { all: [PHONE_LIMIT_PATH] as const };

export const getPhoneLimit = () => apiJson("GET", PHONE_LIMIT_PATH);

export const phoneLimitQueryOptions = () => queryOptions({ queryKey: phoneLimitKeys.all, queryFn: getPhoneLimit });

export const usePhoneLimit = () => useQuery(phoneLimitQueryOptions());
