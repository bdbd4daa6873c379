// Appointment analysis (docs/product/appointment-analysis.md#appointment-analysis Analytics, §7): which of a store's appointments followed an AI
// outbound call to the same number. The match rule is decision 009's "Appointment analysis".
import { and, asc, eq, gte, lt, or } from "drizzle-orm";
import type { AnalysisItem, AnalyticsWonBody } from "@shared/schemas/counts";
import { nyDayBounds } from "@shared/ny-time";
import type { Database } from "../db/client";
import { appointments, profiles } from "../db/schema";

/**
 * The latest matching call of each listed appointment ([phone, booked_at] pairs, one JSON parameter)
 * among one shard's calls of the listed accounts: `i` is the pair's index. Each lookup is one seek
 * of the (phone_number, start_time) index.
 */
const LATEST_CALLS_SQL = `
  with a(i, phone, booked) as (select key, json_extract(value, '$[0]'), json_extract(value, '$[1]') from json_each(?1))
  select a.i as i,
    (select max(c.start_time) from call_logs c
      where c.phone_number = a.phone
        and c.start_time < a.booked
        and c.direction = 'outbound'
        and c.store = ?2
        and c.user_id in (select value from json_each(?3))
    ) as call_date
  from a`;

/**
 * The store's appointments beginning in the range (oldest first, at most `limit`), each with the
 * latest outbound store call to the same number that started before the appointment was booked.
 *
 * Only calls of store-network accounts (profiles with shopwindows_info or is_admin) count: an
 * agent's store is set by its owner, so without that rule any account could name a store on its
 * agent and make its own calls look like the store's. Numbers are stored in E.164 by every writer
 * (the voice webhook, the ingestion API, the seed), so equality is a match.
 *
 * The appointments and the accounts are the directory's, the calls on each account's shard (decision
 * 076): the directory is read first (the appointments and the store-network accounts with their
 * shards, one batch), then every shard holding such an account at once, each for the latest call
 * per appointment among its accounts' calls; the latest over the shards is the match.
 */
export async function analyseAppointments(dbs: { directory: Database; shard: (name: string) => Database }, input: AnalyticsWonBody): Promise<AnalysisItem[]> {
  const { directory } = dbs;
  const from = nyDayBounds(input.startDate).startUtc;
  const to = nyDayBounds(input.endDate).endUtc;
  const [rows, accounts] = await directory.batch([
    directory
      .select({ beginUtc: appointments.beginUtc, bookedAt: appointments.bookedAt, phone: appointments.customerPhone, name: appointments.customerName, sold: appointments.sold })
      .from(appointments)
      .where(and(eq(appointments.store, input.storeId), gte(appointments.beginUtc, from), lt(appointments.beginUtc, to)))
      .orderBy(asc(appointments.beginUtc), asc(appointments.id))
      .limit(input.limit),
    directory.select({ id: profiles.id, shard: profiles.shard }).from(profiles).where(or(eq(profiles.shopwindowsInfo, true), eq(profiles.isAdmin, true))),
  ]);
  const byShard = new Map<string, string[]>();
  for (const a of accounts) if (a.shard) byShard.set(a.shard, [...(byShard.get(a.shard) ?? []), a.id]);
  const asked = rows.map((r, i) => ({ i, phone: r.phone, booked: r.bookedAt })).filter((r) => r.phone !== null);
  const latest = new Map<number, string>();
  if (asked.length > 0) {
    const pairs = JSON.stringify(asked.map((r) => [r.phone, r.booked]));
    const answers = await Promise.all(
      [...byShard].map(([shard, ids]) =>
        dbs
          .shard(shard)
          .$client.prepare(LATEST_CALLS_SQL)
          .bind(pairs, input.storeId, JSON.stringify(ids))
          .all<{ i: number; call_date: string | null }>(),
      ),
    );
    for (const { results } of answers) {
      for (const r of results) {
        const i = asked[r.i].i;
        if (r.call_date !== null && (latest.get(i) ?? "") < r.call_date) latest.set(i, r.call_date);
      }
    }
  }
  return rows.map((r, i) => ({
    begin_utc: r.beginUtc,
    phone_number: r.phone,
    customer_name: r.name,
    matched_call: latest.has(i),
    call_date: latest.get(i) ?? null,
    won: r.sold === true,
  }));
}
