// Phone numbers (docs/product/README.md#records, docs/product/README.md#states-and-flows, docs/product/errors-and-texts.md#validation-messages, docs/product/constants.md#business-constants): the per-account limit, the purchase (recorded against the limit
// in one statement, so concurrent buys cannot pass it), the voice-platform copy, and assigning a
// number to an agent with its voice-platform link.
import { and, asc, count, eq, gt, lt, ne, sql } from "drizzle-orm";
import type { BatchItem } from "drizzle-orm/batch";
import { PHONE_LIMIT } from "@shared/constants";
import { PHONE_API_TEXT, phoneLimitReachedMessage } from "@shared/messages";
import type { AvailableNumberView, BuyNumberResponse, OwnedPhoneNumber } from "@shared/schemas/phone-numbers";
import { PHONE_LIMIT_REACHED_CODE } from "@shared/schemas/phone-numbers";
import { d1Of, isUniqueViolation, rowsPerStatement, type Database } from "../db/client";
import { inOrder } from "./in-order";
import { agents, phoneNumberOffers, phoneNumbers, systemConfig } from "../db/schema";
import type { AppConfig } from "../env";
import { ApiError, badRequest, conflict, notFound } from "../lib/errors";
import { log } from "../lib/log";
import { placeOf } from "../providers/telephony/area-codes";
import type { SearchQuery, TelephonyPort } from "../providers/telephony/port";
import type { VoicePort } from "../providers/voice/port";

export const PHONE_LIMIT_KEY = "phone_number_limit";
/** A reservation older than this was left by a request that died mid-purchase; it frees its slot. */
const STALE_RESERVATION_MS = 10 * 60 * 1000;

// ---- the limit ---------------------------------------------------------------------------

export async function getPhoneNumberLimit(db: Database): Promise<number> {
  const row = await db.query.systemConfig.findFirst({ where: eq(systemConfig.key, PHONE_LIMIT_KEY) });
  const n = Number(row?.value);
  return Number.isInteger(n) && n >= PHONE_LIMIT.min && n <= PHONE_LIMIT.max ? n : PHONE_LIMIT.default;
}

/** The statement that stores the limit, for a batch that records the change with it. */
export function phoneLimitStatement(db: Database, limit: number) {
  const now = new Date().toISOString();
  return db
    .insert(systemConfig)
    .values({ key: PHONE_LIMIT_KEY, value: String(limit), updatedAt: now })
    .onConflictDoUpdate({ target: systemConfig.key, set: { value: String(limit), updatedAt: now } });
}


/** Every number the account holds, reservations included: this is what the limit counts. */
export const phoneNumberCountSql = (userId: string) => sql`select count(*) as n from phone_numbers where user_id = ${userId}`;

export async function countPhoneNumbers(db: Database, userId: string): Promise<number> {
  const row = await db.get<{ n: number }>(phoneNumberCountSql(userId));
  return Number(row?.n ?? 0);
}

// ---- listing and searching ---------------------------------------------------------------

/** The account's numbers (reservations left out), or just one of them. */
export function myNumbersQuery(db: Database, userId: string, onlyId?: number) {
  return db
    .select({
      id: phoneNumbers.id,
      phone_number: phoneNumbers.phoneNumber,
      friendly_name: phoneNumbers.friendlyName,
      locality: phoneNumbers.locality,
      region: phoneNumbers.region,
      iso_country: phoneNumbers.isoCountry,
      agent_id: phoneNumbers.agentId,
      sid: phoneNumbers.sid,
      vapi_phone_number_id: phoneNumbers.vapiPhoneNumberId,
      agent_name: agents.name,
    })
    .from(phoneNumbers)
    .leftJoin(agents, and(eq(agents.id, phoneNumbers.agentId), eq(agents.userId, userId)))
    .where(
      and(
        eq(phoneNumbers.userId, userId),
        ne(phoneNumbers.status, "pending"),
        onlyId === undefined ? undefined : eq(phoneNumbers.id, onlyId),
      ),
    )
    .orderBy(asc(phoneNumbers.id));
}

type MyNumberRow = Awaited<ReturnType<typeof myNumbersQuery>>[number];
const toOwnedNumber = ({ agent_name, ...n }: MyNumberRow): OwnedPhoneNumber => ({ ...n, agents: agent_name == null ? null : { name: agent_name } });

export async function listMyNumbers(db: Database, userId: string, onlyId?: number): Promise<OwnedPhoneNumber[]> {
  const rows = await myNumbersQuery(db, userId, onlyId);
  return rows.map(toOwnedNumber);
}

/** One of the account's numbers (reservations left out), or undefined. */
const myNumberRow = (db: Database, userId: string, id: number) =>
  db.query.phoneNumbers.findFirst({
    where: and(eq(phoneNumbers.id, id), eq(phoneNumbers.userId, userId), ne(phoneNumbers.status, "pending")),
  });

export async function searchAvailableNumbers(telephony: TelephonyPort, query: SearchQuery): Promise<AvailableNumberView[]> {
  const found = await telephony.searchAvailable(query);
  return found.map((n) => ({
    phoneNumber: n.phoneNumber,
    friendlyName: n.friendlyName,
    region: n.region,
    locality: n.locality,
    isoCountry: n.isoCountry,
  }));
}

// ---- buying ------------------------------------------------------------------------------

export type PhoneDeps = { db: Database; telephony: TelephonyPort; voice: VoicePort; config: AppConfig };

/**
 * Buys a number: the checks and the account's count are read first (with the caller's checks), then
 * the number is bought and, when asked, imported into the voice platform, and then one batch records
 * it with its voice-platform id, inserted only while the account is still under its limit (SQLite
 * runs the statement atomically, so of several concurrent purchases only those that still fit get a
 * row). When that batch writes no row (a concurrent purchase took the last slot) or fails, the number
 * goes back to the telephony provider and its import is removed: nothing is left half done.
 */
export async function buyNumber(
  deps: PhoneDeps,
  userId: string,
  input: { phoneNumber: string; createInVapi: boolean },
  allowed: Promise<unknown> = Promise.resolve(),
): Promise<BuyNumberResponse> {
  const { db, telephony } = deps;
  const staleBefore = new Date(Date.now() - STALE_RESERVATION_MS).toISOString();
  // A reservation that is stale (left by a request that died mid-purchase) holds no slot and no number.
  const live = sql`not (${phoneNumbers.status} = 'pending' and ${phoneNumbers.createdAt} < ${staleBefore})`;
  // The limit, the number's holder and the account's count, read together with the caller's checks
  // (`allowed`), whose refusal answers first.
  const [maxAllowed, existing, held] = await inOrder(
    allowed,
    Promise.all([
      getPhoneNumberLimit(db),
      db.query.phoneNumbers.findFirst({ where: and(eq(phoneNumbers.phoneNumber, input.phoneNumber), live) }),
      db.select({ n: count() }).from(phoneNumbers).where(and(eq(phoneNumbers.userId, userId), live)).get(),
    ]),
  );
  if (existing) {
    throw conflict(existing.userId === userId ? PHONE_API_TEXT.numberOwned : PHONE_API_TEXT.numberUnavailable, "phoneNumber");
  }
  const limitReached = (currentCount: number) =>
    new ApiError(409, phoneLimitReachedMessage(maxAllowed, currentCount), PHONE_LIMIT_REACHED_CODE, undefined, {
      limitReached: true,
      maxAllowed,
      currentCount,
    });
  const heldCount = Number(held?.n ?? 0);
  if (heldCount >= maxAllowed) throw limitReached(heldCount);

  const bought = await telephony.purchase(input.phoneNumber);

  let vapiPhoneNumberId: string | null = null;
  let error: string | undefined;
  if (input.createInVapi) {
    try {
      const imported = await deps.voice.importTwilioNumber({
        number: bought.phoneNumber,
        name: bought.friendlyName,
        ...(telephony.kind === "twilio"
          ? { twilioAccountSid: deps.config.TWILIO_ACCOUNT_SID, twilioAuthToken: deps.config.TWILIO_AUTH_TOKEN }
          : {}),
      });
      vapiPhoneNumberId = imported.id;
    } catch (e) {
      // The number is bought and kept; the client warns that AI calls are not set up. Only a provider's
      // own message is shown; anything else stays in the log.
      const detail = e instanceof Error ? e.message : String(e);
      error = e instanceof ApiError ? e.message : PHONE_API_TEXT.vapiCopyNotSaved;
      log(null, "warn", "voice-platform import failed", { phoneNumber: bought.phoneNumber, error: detail });
    }
  }

  // Gives the number back (and its import): the purchase is undone when it cannot be recorded.
  const giveBack = async () => {
    if (vapiPhoneNumberId) {
      await deps.voice.removeNumber(vapiPhoneNumberId).catch((err) =>
        log(null, "error", "removing the import after a failed save failed", { vapiPhoneNumberId, error: (err as Error).message }),
      );
    }
    await telephony.release(bought.sid).catch((err) =>
      log(null, "error", "release after failed save failed", { sid: bought.sid, error: (err as Error).message }),
    );
  };

  const place = placeOf(bought.phoneNumber);
  let rowId: number | undefined;
  let currentCount: number;
  try {
    // Stale reservations go first: the account's own (they count against its limit) and any on this
    // number (whoever left it). Then the number, only while the account is under its limit, and the
    // account's count (what the answer reports).
    const d1 = d1Of(db);
    const [, inserted, counted] = await d1.batch<{ id?: number; n?: number }>([
      d1
        .prepare("delete from phone_numbers where (user_id = ? or phone_number = ?) and status = 'pending' and created_at < ?")
        .bind(userId, input.phoneNumber, staleBefore),
      d1
        .prepare(
          "insert into phone_numbers (user_id, phone_number, friendly_name, locality, region, iso_country, sid, vapi_phone_number_id, status) " +
            "select ?, ?, ?, ?, ?, ?, ?, ?, 'active' where (select count(*) as n from phone_numbers where user_id = ?) < ? returning id",
        )
        .bind(
          userId,
          bought.phoneNumber,
          bought.friendlyName,
          // Twilio's purchase answer has no location; the area code still tells the city.
          bought.locality ?? place?.locality ?? null,
          bought.region ?? place?.region ?? null,
          bought.isoCountry || "US",
          bought.sid,
          vapiPhoneNumberId,
          userId,
          maxAllowed,
        ),
      d1.prepare("select count(*) as n from phone_numbers where user_id = ?").bind(userId),
    ]);
    rowId = inserted.results[0]?.id;
    currentCount = Number(counted.results[0]?.n ?? 0);
  } catch (e) {
    await giveBack();
    if (isUniqueViolation(e)) throw conflict(PHONE_API_TEXT.numberUnavailable, "phoneNumber");
    throw e;
  }
  if (rowId === undefined) {
    await giveBack();
    throw limitReached(currentCount);
  }

  return {
    sid: bought.sid,
    phoneNumber: bought.phoneNumber,
    phoneNumberId: rowId,
    vapiCreated: vapiPhoneNumberId !== null,
    vapiPhoneNumberId,
    limitReached: false,
    maxAllowed,
    currentCount,
    ...(error ? { error } : {}),
  };
}

// ---- assigning ---------------------------------------------------------------------------

export async function assignNumber(
  deps: Pick<PhoneDeps, "db" | "voice">,
  userId: string,
  input: { phoneNumberId: number; agentId: number },
): Promise<OwnedPhoneNumber> {
  const { db } = deps;
  // The number, the agent, a number the agent holds already and the number as the list shows it, read
  // together; the answers keep their order (the number first, then the agent).
  const [numberRow, agent, held, [current]] = await Promise.all([
    myNumberRow(db, userId, input.phoneNumberId),
    db.query.agents.findFirst({ where: and(eq(agents.id, input.agentId), eq(agents.userId, userId)) }),
    db.query.phoneNumbers.findFirst({ where: eq(phoneNumbers.agentId, input.agentId) }),
    listMyNumbers(db, userId, input.phoneNumberId),
  ]);
  if (!numberRow) throw notFound(PHONE_API_TEXT.numberNotFound);
  const number = numberRow;
  if (!agent) throw notFound(PHONE_API_TEXT.agentNotFound);

  if (number.agentId === agent.id && agent.twilioNumberId === number.id) {
    if (!current) throw notFound(PHONE_API_TEXT.numberNotFound);
    return current;
  }
  if (number.agentId != null) throw conflict(PHONE_API_TEXT.numberHasAgent, "phoneNumberId");
  if (held || agent.twilioNumberId != null) throw conflict(PHONE_API_TEXT.agentHasNumber, "agentId");

  // One transaction: the number's agent link, then the agent's mirror of it only if the first
  // took effect. The unique index on phone_numbers.agent_id refuses a second number per agent.
  const now = new Date().toISOString();
  let linked: { id: number }[];
  let view: MyNumberRow | undefined;
  try {
    [linked, , [view]] = await db.batch([
      db
        .update(phoneNumbers)
        .set({ agentId: agent.id, updatedAt: now })
        .where(and(eq(phoneNumbers.id, number.id), eq(phoneNumbers.userId, userId), sql`${phoneNumbers.agentId} is null`))
        .returning({ id: phoneNumbers.id }),
      db
        .update(agents)
        .set({ twilioNumberId: number.id, assignedPhoneNumber: number.phoneNumber, updatedAt: now })
        .where(
          and(
            eq(agents.id, agent.id),
            eq(agents.userId, userId),
            sql`exists (select 1 from phone_numbers where id = ${number.id} and agent_id = ${agent.id})`,
          ),
        )
        .returning({ id: agents.id }),
      // The number as the list shows it once linked (the voice platform's pointing below changes no row).
      myNumbersQuery(db, userId, number.id),
    ]);
  } catch (e) {
    if (isUniqueViolation(e)) throw conflict(PHONE_API_TEXT.agentHasNumber, "agentId");
    throw e;
  }
  if (linked.length === 0) throw conflict(PHONE_API_TEXT.numberHasAgent, "phoneNumberId");

  if (number.vapiPhoneNumberId && agent.vapiAssistantId) {
    try {
      await deps.voice.setNumberAssistant(number.vapiPhoneNumberId, agent.vapiAssistantId);
    } catch (e) {
      // The platform did not take the link: undo ours so both sides agree.
      await clearLinks(db, userId, number.id);
      throw e;
    }
  }
  if (!view) throw notFound(PHONE_API_TEXT.numberNotFound);
  return toOwnedNumber(view);
}

/** Clears the number's agent link and every agent mirror of it, in one transaction, and reads the number as the list shows it then. */
function clearLinks(db: Database, userId: string, numberId: number) {
  const now = new Date().toISOString();
  return db.batch([
    db
      .update(agents)
      .set({ twilioNumberId: null, assignedPhoneNumber: null, updatedAt: now })
      .where(and(eq(agents.userId, userId), eq(agents.twilioNumberId, numberId))),
    db
      .update(phoneNumbers)
      .set({ agentId: null, updatedAt: now })
      .where(and(eq(phoneNumbers.id, numberId), eq(phoneNumbers.userId, userId))),
    myNumbersQuery(db, userId, numberId),
  ]);
}

export async function unassignNumber(
  deps: Pick<PhoneDeps, "db" | "voice">,
  userId: string,
  input: { phoneNumberId: number },
): Promise<OwnedPhoneNumber> {
  const { db } = deps;
  // The number and the agent it is linked to (through the number's own link), read together.
  const [numberRow, agent] = await Promise.all([
    myNumberRow(db, userId, input.phoneNumberId),
    db.query.agents.findFirst({
      where: and(
        eq(agents.userId, userId),
        sql`${agents.id} = (select agent_id from phone_numbers where id = ${input.phoneNumberId} and user_id = ${userId} and status <> 'pending')`,
      ),
    }),
  ]);
  if (!numberRow) throw notFound(PHONE_API_TEXT.numberNotFound);
  const number = numberRow;

  const [, , [view]] = await clearLinks(db, userId, number.id);

  if (number.vapiPhoneNumberId && agent?.vapiAssistantId) {
    try {
      await deps.voice.setNumberAssistant(number.vapiPhoneNumberId, null);
    } catch (e) {
      // Put the link back: the platform still routes this number to the agent.
      const now = new Date().toISOString();
      await db.batch([
        db.update(phoneNumbers).set({ agentId: agent.id, updatedAt: now }).where(eq(phoneNumbers.id, number.id)),
        db
          .update(agents)
          .set({ twilioNumberId: number.id, assignedPhoneNumber: number.phoneNumber, updatedAt: now })
          .where(eq(agents.id, agent.id)),
      ]);
      throw e;
    }
  }
  if (!view) throw notFound(PHONE_API_TEXT.numberNotFound);
  return toOwnedNumber(view);
}

/** How long a search's offer of a number stands. */
export const NUMBER_OFFER_TTL_MS = 60 * 60 * 1000;

/**
 * Records the numbers a search offered to the account (and drops its expired offers), for the
 * caller's batch: only these can then be bought by it.
 */
export function numberOfferStatements(db: Database, userId: string, numbers: string[], now = Date.now()) {
  const expiresAt = new Date(now + NUMBER_OFFER_TTL_MS).toISOString();
  const statements: BatchItem<"sqlite">[] = [
    db.delete(phoneNumberOffers).where(and(eq(phoneNumberOffers.userId, userId), lt(phoneNumberOffers.expiresAt, new Date(now).toISOString()))),
  ];
  const rows = [...new Set(numbers)].map((phoneNumber) => ({ userId, phoneNumber, expiresAt }));
  const size = rowsPerStatement(phoneNumberOffers);
  for (let i = 0; i < rows.length; i += size) {
    statements.push(
      db
        .insert(phoneNumberOffers)
        .values(rows.slice(i, i + size))
        .onConflictDoUpdate({ target: [phoneNumberOffers.userId, phoneNumberOffers.phoneNumber], set: { expiresAt } }),
    );
  }
  return statements;
}

/** Refuses a purchase of a number no recent search offered to this account (400 naming phoneNumber). */
export async function requireNumberOffer(db: Database, userId: string, phoneNumber: string, now = Date.now()) {
  const offer = await db.query.phoneNumberOffers.findFirst({
    where: and(eq(phoneNumberOffers.userId, userId), eq(phoneNumberOffers.phoneNumber, phoneNumber), gt(phoneNumberOffers.expiresAt, new Date(now).toISOString())),
  });
  if (!offer) throw badRequest(PHONE_API_TEXT.numberNotOffered, "phoneNumber");
}
