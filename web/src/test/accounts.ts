// The signed-in customer the SPA's tests open pages as: a restored session and the profile the API
// answers for it.
import type { Session } from "@supabase/supabase-js";
import type { CurrentUserView } from "@shared/schemas/auth";

export const testSession = {
  access_token: "access-1",
  refresh_token: "r",
  expires_in: 900,
  token_type: "bearer",
  user: { id: "u1" },
} as unknown as Session;

export const testCustomer: CurrentUserView = {
  id: "u1",
  email: "owner@store.example",
  username: "owner",
  company: "Tyler Motors",
  first_name: null,
  last_name: null,
  is_admin: false,
  shopwindows_info: false,
  call_app: false,
};
