// The plan panel's existence check (docs/product/api.md#dashboard-counts): only a clear "yes" leads to the login view.
import type { UserExistsResponse } from "@shared/schemas/auth";
import { apiJson } from "@web/lib/api";

export async function isExistingUser(email: string): Promise<boolean> {
  try {
    const answer: Partial<UserExistsResponse> = await apiJson("POST", "/api/admin/public/user-exists", { email });
    return answer.success === true && answer.exists === true;
  } catch {
    // Any failure sends the visitor to the plans page.
    return false;
  }
}
