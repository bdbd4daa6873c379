// /checkout?priceId&interval&email&trial (docs/product/screens-and-routes.md#route-table).
import { searchEnum, searchFlag, searchSchema, searchText, type SearchOf } from "@web/lib/search";

const checkoutFields = {
  priceId: searchText(100),
  interval: searchEnum(["month", "year"]),
  email: searchText(),
  trial: searchFlag(),
};
export const checkoutSearchSchema = searchSchema(checkoutFields);
export type CheckoutSearch = SearchOf<typeof checkoutFields>;

/** /payments/success?session_id (the hash may carry it too). */
export const successSearchSchema = searchSchema({ session_id: searchText(200) });
