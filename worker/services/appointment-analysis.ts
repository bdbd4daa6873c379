// Appointment analysis (docs/product/appointment-analysis.md#appointment-analysis Analytics, §7): which of a store's appointments followed an AI
// outbound call to the same number. The match rule is decision 009's "Appointment analysis".
import { sql } from "drizzle-orm";
import type { AnalysisItem, AnalyticsWonBody } from "@shared/schemas/counts";
import { nyDayBounds } from "@shared/ny-time";
import type { Database } from "../db/client";

type Row = {
  begin_utc: string;
  customer_phone: string | null;
  customer_name: string | null;
  sold: number | null;
  call_date: string | null;
};

/**
 * The store's appointments beginning in the range (oldest first, at most `limit`), each with the
 * latest outbound store call to the same number that started before the appointment was booked.
 *
 * Only calls of store-network accounts (profiles with shopwindows_info or is_admin) count: an
 * agent's store is set by its owner, so without that rule any account could name a store on its
 * agent and make its own calls look like the store's. Numbers are stored in E.164 by every writer
 * (the voice webhook, the ingestion API, the seed), so equality is a match; the
 * (phone_number, start_time) index makes each lookup one seek.
 */
export async function analyseAppointments(db: Database, input: AnalyticsWonBody): Promise<AnalysisItem[]> {
  const from = nyDayBounds(input.startDate).startUtc;
  const to = nyDayBounds(input.endDate).endUtc;
  const rows = await db.all<Row>(sql`
    select a.begin_utc, a.customer_phone, a.customer_name, a.sold,
      (select max(c.start_time) from call_logs c
        where c.phone_number = a.customer_phone
          and c.start_time < a.booked_at
          and c.direction = 'outbound'
          and c.store = a.store
          and c.user_id in (select p.id from profiles p where p.shopwindows_info = 1 or p.is_admin = 1)
      ) as call_date
    from appointments a
    where a.store = ${input.storeId} and a.begin_utc >= ${from} and a.begin_utc < ${to}
    order by a.begin_utc, a.id
    limit ${input.limit}`);
  return rows.map((r) => ({
    begin_utc: r.begin_utc,
    phone_number: r.customer_phone,
    customer_name: r.customer_name,
    matched_call: r.call_date !== null,
    call_date: r.call_date,
    won: r.sold === 1,
  }));
}
