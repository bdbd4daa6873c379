// The Available Phone Numbers table and the admin assignment (docs/product/screens-and-routes.md#route-table, docs/product/api.md#api Admin). The pool is the
// numbers the voice platform holds that we bought and imported (phone_numbers with a platform id):
// who holds each, or nobody when it was returned to the pool (docs/decisions/019-user-deletion.md).
import { and, asc, eq, isNotNull, isNull, ne, sql } from "drizzle-orm";
import { ADMIN_API_TEXT } from "@shared/messages";
import type { AdminPhoneNumber, AssignPhoneNumberBody } from "@shared/schemas/admin";
import type { Database } from "../../db/client";
import { phoneNumbers, profiles } from "../../db/schema";
import { badRequest, conflict, notFound } from "../../lib/errors";
import { auditStatement, type AdminActor } from "./audit-log";

function numbersQuery(db: Database) {
  return db
    .select({
      id: phoneNumbers.vapiPhoneNumberId,
      number: phoneNumbers.phoneNumber,
      status: phoneNumbers.status,
      name: phoneNumbers.name,
      friendlyName: phoneNumbers.friendlyName,
      userId: phoneNumbers.userId,
      email: profiles.email,
    })
    .from(phoneNumbers)
    .leftJoin(profiles, eq(profiles.id, phoneNumbers.userId));
}

type NumberRow = Awaited<ReturnType<ReturnType<typeof numbersQuery>["all"]>>[number];

const toView = (r: NumberRow): AdminPhoneNumber => ({
  id: r.id!,
  phoneNumber: r.number,
  number: r.number,
  status: r.status,
  name: r.name ?? null,
  assignedTo: r.email ?? null,
  assignedUserId: r.userId ?? null,
});

export async function listPlatformNumbers(db: Database): Promise<AdminPhoneNumber[]> {
  const rows = await numbersQuery(db)
    .where(and(isNotNull(phoneNumbers.vapiPhoneNumberId), ne(phoneNumbers.status, "pending")))
    .orderBy(asc(phoneNumbers.phoneNumber));
  return rows.map(toView);
}

/**
 * Gives a pool number to an account. A number another account holds is refused (taking it would cut
 * that account's agent off); assigning a number to the account that holds it already changes nothing.
 */
export async function assignPlatformNumber(db: Database, actor: AdminActor, body: AssignPhoneNumberBody): Promise<AdminPhoneNumber> {
  // The number and the account, read together; the answers keep their order (the number first).
  const [row, user] = await Promise.all([
    db.query.phoneNumbers.findFirst({
      where: and(eq(phoneNumbers.vapiPhoneNumberId, body.vapi_number_id), ne(phoneNumbers.status, "pending")),
    }),
    db.query.profiles.findFirst({ where: eq(profiles.id, body.user_id) }),
  ]);
  if (!row) throw notFound(ADMIN_API_TEXT.numberNotInPool);
  if (row.phoneNumber !== body.phone_number) throw badRequest(ADMIN_API_TEXT.numberMismatch, "phone_number");
  if (!user) throw notFound(ADMIN_API_TEXT.userIdNotFound);
  if (row.userId && row.userId !== user.id) throw conflict(ADMIN_API_TEXT.numberTaken, "phone_number");
  if (row.userId !== user.id) {
    const [taken] = await db.batch([
      db
        .update(phoneNumbers)
        .set({ userId: user.id, agentId: null, updatedAt: new Date().toISOString() })
        .where(and(eq(phoneNumbers.id, row.id), isNull(phoneNumbers.userId)))
        .returning({ id: phoneNumbers.id }),
      auditStatement(db, actor, "assign_phone_number", { id: user.id, email: user.email }, {
        phone_number: row.phoneNumber,
        vapi_number_id: body.vapi_number_id,
      }, sql`changes() = 1`),
    ]);
    // Someone else took it between the read and the write: nothing changed and nothing was recorded.
    if (taken.length === 0) throw conflict(ADMIN_API_TEXT.numberTaken, "phone_number");
  }
  // The number as the list shows it, now held by the account (the write changes nothing else it shows).
  return toView({ id: row.vapiPhoneNumberId, number: row.phoneNumber, status: row.status, name: row.name, friendlyName: row.friendlyName, userId: user.id, email: user.email });
}
