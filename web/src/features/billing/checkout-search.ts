// /checkout?priceId&interval&email&trial (spec 2 §2).
import * as z from "zod/mini";
import { searchFlag, searchText } from "@web/lib/search";

export const checkoutSearchSchema = z.object({
  priceId: searchText(100),
  interval: z.catch(z.optional(z.enum(["month", "year"])), undefined),
  email: searchText(),
  trial: searchFlag(),
});
export type CheckoutSearch = z.infer<typeof checkoutSearchSchema>;

/** /payments/success?session_id (the hash may carry it too). */
export const successSearchSchema = z.object({ session_id: searchText(200) });
