// Agent business rules (docs/product/README.md#states-and-flows, docs/product/README.md#states-and-flows, docs/product/errors-and-texts.md#validation-messages; docs/decisions/004-agents-reconciled.md):
// ownership, unique names, the plan's agent limit, activation on the voice platform, deactivation and deletion.
// Every query is scoped by the owner's user id; platform calls come first and the database is written
// only after they succeed, so a failed step leaves the agent as it was.
import { and, asc, count, eq, isNotNull, isNull, ne, sql } from "drizzle-orm";
import type { BatchItem } from "drizzle-orm/batch";
import { DEFAULT_VOICE_ID } from "@shared/constants";
import { AGENT_API_TEXT, AGENT_TEXT } from "@shared/messages";
import {
  agentFormSchema,
  nextNewAgentName,
  type ActivateAgentBody,
  type AccountPlan,
  type Agent,
  type AgentCreateBody,
  type AgentUpdateBody,
  type GeneratePromptBody,
} from "@shared/schemas/agents";
import { isUniqueViolation, type Database } from "../db/client";
import { agents, phoneNumbers } from "../db/schema";
import { ApiError, badRequest, notFound, providerStep } from "../lib/errors";
import { log } from "../lib/log";
import type { PromptWriterPort } from "../providers/prompt/port";
import type { AssistantSpec, VoicePort } from "../providers/voice/port";
import type { CallTextBucket } from "./call-text";
import { adoptOrphanCalls, orphanCalls, type OrphanCall } from "./orphan-calls";
import { inOrder } from "./in-order";
import { accountPlan } from "./plans";

type AgentRow = typeof agents.$inferSelect;
type AssignedNumber = { id: number; phoneNumber: string; vapiPhoneNumberId: string | null };
/** An agent with the number assigned to it (phone_numbers.agent_id is the link of record). */
export type AgentRecord = AgentRow & { number: AssignedNumber | null };

/**
 * `db`: the directory (agents live there); `shard`: the account's shard, where its adopted calls go;
 * `text`: the call text in R2 (decision 077), whose orphan objects an adoption moves.
 */
export type AgentDeps = { db: Database; shard: Database; voice: VoicePort; prompt: PromptWriterPort; text: CallTextBucket };

const nowIso = () => new Date().toISOString();

export function toAgentJson(a: AgentRecord): Agent {
  const assigned = a.number?.phoneNumber ?? a.assignedPhoneNumber ?? null;
  return {
    id: a.id,
    name: a.name,
    business_description: a.businessDescription,
    services: a.services,
    agent_instructions: a.agentInstructions,
    pricing_information: a.pricingInformation,
    documents: a.documents,
    prompt: a.prompt,
    voice_id: a.voiceId,
    vapi_assistant_id: a.vapiAssistantId,
    store: a.store,
    type: a.type,
    twilio_number_id: a.number?.id ?? a.twilioNumberId ?? null,
    assigned_phone_number: assigned,
    phone_number: assigned,
    updated_at: a.updatedAt,
    created_at: a.createdAt,
  };
}

function selectAgents(db: Database) {
  return db
    .select({
      agent: agents,
      // Named apart from agents.id: a D1 batch answers rows keyed by column name, where two `id`s collide.
      numberId: sql<number | null>`${phoneNumbers.id}`.as("number_id"),
      numberValue: phoneNumbers.phoneNumber,
      vapiPhoneNumberId: phoneNumbers.vapiPhoneNumberId,
    })
    .from(agents)
    .leftJoin(phoneNumbers, eq(phoneNumbers.agentId, agents.id));
}

type Joined = { agent: AgentRow; numberId: number | null; numberValue: string | null; vapiPhoneNumberId: string | null };
const toRecord = (r: Joined): AgentRecord => ({
  ...r.agent,
  number: r.numberId !== null && r.numberValue !== null ? { id: r.numberId, phoneNumber: r.numberValue, vapiPhoneNumberId: r.vapiPhoneNumberId } : null,
});

/** The account's agents, oldest first (so "the first agent is auto-selected" is stable). */
export async function listAgents(db: Database, userId: string): Promise<AgentRecord[]> {
  const rows = await selectAgents(db).where(eq(agents.userId, userId)).orderBy(asc(agents.id));
  return rows.map(toRecord);
}

/** The account's first active agent (the default caller of a test call), or null. */
export async function firstActiveAgent(db: Database, userId: string): Promise<AgentRecord | null> {
  const row = await selectAgents(db)
    .where(and(eq(agents.userId, userId), isNotNull(agents.vapiAssistantId)))
    .orderBy(asc(agents.id))
    .get();
  return row ? toRecord(row) : null;
}

/** One agent of the account; another account's agent is simply not found. */
export async function getAgent(db: Database, userId: string, id: number): Promise<AgentRecord> {
  const row = await selectAgents(db)
    .where(and(eq(agents.id, id), eq(agents.userId, userId)))
    .get();
  if (!row) throw notFound("Agent not found");
  return toRecord(row);
}

const duplicateName = () => new ApiError(409, AGENT_TEXT.duplicate, "duplicate_name", "name");

/** Another agent of the account with this name (any case), if there is one. */
const nameClash = (db: Database, userId: string, name: string, exceptId?: number) =>
  db
    .select({ id: agents.id })
    .from(agents)
    .where(and(eq(agents.userId, userId), sql`lower(${agents.name}) = lower(${name})`, exceptId ? ne(agents.id, exceptId) : undefined))
    .get();

/** The account's agent of this name (any case): the row the name's unique index allows, with its number. */
const agentNamed = (db: Database, userId: string, name: string) =>
  selectAgents(db).where(and(eq(agents.userId, userId), sql`lower(${agents.name}) = lower(${name})`));

/** A concurrent insert can still hit the (user_id, lower(name)) unique index; answer it as the same 409. */
const isNameUniqueViolation = (e: unknown) => isUniqueViolation(e, /agents_user_name_uq|agents\.user_id|agents\.name/i);

export async function countAgents(db: Database, userId: string) {
  const row = await db.select({ n: count() }).from(agents).where(eq(agents.userId, userId)).get();
  return row?.n ?? 0;
}

/** The refusal names the plan's limit, or, without a plan, the drafts such an account may keep. */
const agentLimitReached = (plan: AccountPlan, current: number) =>
  new ApiError(403, plan.plan ? AGENT_API_TEXT.agentLimitReached(plan.agentLimit) : AGENT_API_TEXT.agentLimitNoPlan(plan.agentLimit), "agent_limit_reached", undefined, {
    maxAllowed: plan.agentLimit,
    currentCount: current,
    upgradeUrl: "/buy",
  });

/** Refuses early when the account's agent limit is already reached. */
function assertBelowAgentLimit(plan: AccountPlan, current: number): AccountPlan {
  if (current >= plan.agentLimit) throw agentLimitReached(plan, current);
  return plan;
}

type NewAgent = Omit<typeof agents.$inferInsert, "userId" | "voiceId">;

/**
 * Inserts the agent and reads it back, in one batch. The plan's agent limit is checked inside the
 * insert itself (one statement, so SQLite runs it atomically): of concurrent creates only those that
 * still fit get a row. The name is given as a subquery that is NULL once the account has its limit of
 * agents, so the insert then breaks the name's NOT NULL constraint and writes nothing. The read
 * finds the new row by its name, which the (user_id, lower(name)) index makes the account's only
 * one; a new agent holds no number.
 */
async function insertAgent(db: Database, userId: string, values: NewAgent, plan: AccountPlan): Promise<AgentRecord> {
  // The voice is forced to the default on creation (docs/product/errors-and-texts.md#validation-messages); it can be changed afterwards.
  const row = { ...values, userId, voiceId: DEFAULT_VOICE_ID };
  const name = sql`(select ${row.name} where (select count(*) from agents where user_id = ${userId}) < ${plan.agentLimit})`;
  try {
    const [, [created]] = await db.batch([db.insert(agents).values({ ...row, name }), agentNamed(db, userId, row.name)]);
    if (!created) throw notFound("Agent not found");
    return toRecord(created);
  } catch (e) {
    if (isNameUniqueViolation(e)) throw duplicateName();
    if (isLimitViolation(e)) throw agentLimitReached(plan, await countAgents(db, userId));
    throw e;
  }
}

/** The insert found the account at its limit (its name subquery gave NULL). */
function isLimitViolation(e: unknown): boolean {
  for (let err: unknown = e, depth = 0; err && depth < 4; err = (err as { cause?: unknown }).cause, depth++) {
    if (/NOT NULL constraint failed: agents\.name/i.test(String((err as Error).message ?? ""))) return true;
  }
  return false;
}

/** Saves a new agent. Short or empty fields are allowed (the card then shows it as incomplete); activation checks them. */
export async function createAgent(db: Database, userId: string, body: AgentCreateBody): Promise<AgentRecord> {
  // What decides the answer, read together: a name taken, then the plan's limit reached.
  const [clash, plan, current] = await Promise.all([nameClash(db, userId, body.name), accountPlan(db, userId), countAgents(db, userId)]);
  if (clash) throw duplicateName();
  const limit = assertBelowAgentLimit(plan, current);
  return insertAgent(
    db,
    userId,
    {
      name: body.name,
      businessDescription: body.business_description,
      services: body.services,
      agentInstructions: body.agent_instructions,
      pricingInformation: body.pricing_information,
      documents: body.documents,
      store: body.store,
      type: body.type,
    },
    limit,
  );
}

/** Runs the write and reads the agent back in one batch; a gone agent is not found. */
async function writeAndRead(db: Database, userId: string, id: number, write: BatchItem<"sqlite">): Promise<AgentRecord> {
  const [, [row]] = await db.batch([write, selectAgents(db).where(and(eq(agents.id, id), eq(agents.userId, userId)))]);
  if (!row) throw notFound("Agent not found");
  return toRecord(row);
}

export async function updateAgent(db: Database, userId: string, id: number, body: AgentUpdateBody): Promise<AgentRecord> {
  // The agent (not found answers first) and a clash with the new name, read together.
  const [, clash] = await Promise.all([getAgent(db, userId, id), body.name !== undefined ? nameClash(db, userId, body.name, id) : undefined]);
  if (clash) throw duplicateName();
  const changes: Partial<typeof agents.$inferInsert> = {
    ...(body.name !== undefined && { name: body.name }),
    ...(body.business_description !== undefined && { businessDescription: body.business_description }),
    ...(body.services !== undefined && { services: body.services }),
    ...(body.agent_instructions !== undefined && { agentInstructions: body.agent_instructions }),
    ...(body.pricing_information !== undefined && { pricingInformation: body.pricing_information }),
    ...(body.documents !== undefined && { documents: body.documents }),
    ...(body.voice_id !== undefined && { voiceId: body.voice_id }),
    ...(body.store !== undefined && { store: body.store }),
    ...(body.type !== undefined && { type: body.type }),
  };
  try {
    return await writeAndRead(db, userId, id, db.update(agents).set({ ...changes, updatedAt: nowIso() }).where(and(eq(agents.id, id), eq(agents.userId, userId))));
  } catch (e) {
    if (isNameUniqueViolation(e)) throw duplicateName();
    throw e;
  }
}

/** Voice-platform failures reach the user as provider errors (never a silent fallback). */
export const onVoice = <T>(step: string, fn: () => Promise<T>) => providerStep("Voice platform", step, fn);

/** Best-effort clean-up after a later step failed; the original error is what the user sees. */
async function quietly(what: string, fn: () => Promise<unknown>) {
  try {
    await fn();
  } catch (e) {
    log(null, "warn", `${what} failed`, { error: e instanceof Error ? e.message : String(e) });
  }
}

/** The fields an assistant is written from must meet the agent form's minimums (docs/product/errors-and-texts.md#validation-messages). */
export function assertComplete(a: Pick<AgentRow, "name" | "businessDescription" | "services" | "agentInstructions">) {
  const parsed = agentFormSchema.safeParse({
    name: a.name,
    business_description: a.businessDescription,
    services: a.services,
    agent_instructions: a.agentInstructions,
  });
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    throw badRequest(issue.message, issue.path.map(String).join("."));
  }
}

export async function generatePrompt(prompt: PromptWriterPort, input: GeneratePromptBody): Promise<string> {
  const text = await prompt.generate({
    name: input.name,
    business_description: input.business_description,
    services: input.services,
    agent_instructions: input.agent_instructions,
    pricing_information: input.pricing_information,
    documents: input.documents,
  });
  return text.trim();
}

/**
 * Activation (docs/product/README.md#states-and-flows): fetch the agent; update its assistant if it has one, otherwise create one;
 * store prompt and assistant id; then point its imported number at it. Nothing is written unless the
 * assistant call succeeded; if the write or the pointing fails the row is left (or put back) as it was,
 * and an assistant created by this call is removed again. `allowed` is a check already under way
 * (the plan's), read together with the agent; its refusal answers first.
 */
export async function activateAgent(
  deps: AgentDeps,
  userId: string,
  input: ActivateAgentBody,
  allowed: Promise<unknown> = Promise.resolve(),
): Promise<{ assistantId: string; agent: AgentRecord }> {
  const { db, voice } = deps;
  const agent = await inOrder(allowed, getAgent(db, userId, input.agent_id));
  assertComplete(agent);
  const prompt =
    input.prompt ||
    (await generatePrompt(deps.prompt, {
      name: agent.name,
      business_description: agent.businessDescription,
      services: agent.services,
      agent_instructions: agent.agentInstructions,
      pricing_information: agent.pricingInformation,
      documents: agent.documents,
    }));
  const voiceId = input.voice_id ?? agent.voiceId;
  const spec: AssistantSpec = {
    // Named after the saved agent, so the platform and the agent list never disagree.
    name: agent.name,
    prompt,
    voiceId,
    metadata: { agentId: String(agent.id), userId },
  };
  const previous = agent.vapiAssistantId;
  const assistant = previous
    ? await onVoice("Updating the assistant", () => voice.updateAssistant(userId, previous, spec))
    : await onVoice("Creating the assistant", () => voice.createAssistant(userId, spec));
  const assistantId = previous ?? assistant.id;
  const numberId = agent.number?.vapiPhoneNumberId ?? null;

  // The row is claimed first, conditionally; only the request that claimed it points the number, so
  // a concurrent activation that lost never re-points (or unpoints) the number the winner set.
  // The agent as it now stands and, for a new assistant, the calls it has left without an owner are
  // read in the same batch (neither the number's pointing nor the adoption below changes the row).
  let activated: AgentRecord;
  let orphans: OrphanCall[] = [];
  try {
    const [written, [row], ownerless] = await db.batch([
      db
        .update(agents)
        .set({ prompt, vapiAssistantId: assistantId, voiceId, updatedAt: nowIso() })
        .where(
          and(
            eq(agents.id, agent.id),
            eq(agents.userId, userId),
            // Only if no other request activated or deactivated it meanwhile.
            previous ? eq(agents.vapiAssistantId, previous) : isNull(agents.vapiAssistantId),
          ),
        )
        .returning({ id: agents.id }),
      selectAgents(db).where(and(eq(agents.id, agent.id), eq(agents.userId, userId))),
      orphanCalls(db, previous ? null : assistantId),
    ]);
    if (written.length === 0 || !row) throw new ApiError(409, AGENT_API_TEXT.changedMeanwhile, "conflict");
    activated = toRecord(row);
    orphans = ownerless;
  } catch (e) {
    if (!previous) await quietly("Removing the new assistant", () => voice.deleteAssistant(userId, assistantId));
    throw e;
  }

  if (numberId) {
    try {
      await onVoice("Pointing the number at the assistant", () => voice.setNumberAssistant(numberId, assistantId));
    } catch (e) {
      // Put the agent back as it was (if it is still ours); only then may the new assistant go.
      let restored = false;
      await quietly("Restoring the agent", async () => {
        await db
          .update(agents)
          .set({ prompt: agent.prompt, vapiAssistantId: previous, voiceId: agent.voiceId, updatedAt: agent.updatedAt })
          .where(and(eq(agents.id, agent.id), eq(agents.userId, userId), eq(agents.vapiAssistantId, assistantId)));
        restored = true;
      });
      if (!previous && restored) {
        await quietly("Unpointing the number", () => voice.setNumberAssistant(numberId, null));
        await quietly("Removing the new assistant", () => voice.deleteAssistant(userId, assistantId));
      }
      throw e;
    }
  }
  // Calls the platform reported for this assistant before the agent held it become the agent's; a
  // failure leaves them ownerless (all or nothing) and the activation stands.
  if (!previous && orphans.length > 0) {
    await quietly("Adopting earlier calls", () => adoptOrphanCalls(db, deps.shard, deps.text, assistantId, { userId, agentId: agent.id, store: agent.store }, orphans));
  }
  return { assistantId, agent: activated };
}

async function removeAssistant(deps: AgentDeps, userId: string, agent: AgentRecord) {
  const assistantId = agent.vapiAssistantId!;
  await onVoice("Deleting the assistant", () => deps.voice.deleteAssistant(userId, assistantId));
  const numberId = agent.number?.vapiPhoneNumberId;
  // The number would otherwise keep pointing at an assistant that no longer exists.
  if (numberId) await quietly("Unpointing the number", () => deps.voice.setNumberAssistant(numberId, null));
}

/** Deactivation (docs/product/README.md#states-and-flows): delete the assistant (an error if there is none or the delete fails), then mark the agent inactive. */
export async function deactivateAgent(deps: AgentDeps, userId: string, id: number): Promise<AgentRecord> {
  return deactivate(deps, userId, await getAgent(deps.db, userId, id));
}

async function deactivate(deps: AgentDeps, userId: string, agent: AgentRecord): Promise<AgentRecord> {
  if (!agent.vapiAssistantId) throw badRequest(AGENT_API_TEXT.noAssistant);
  await removeAssistant(deps, userId, agent);
  const { db } = deps;
  return writeAndRead(
    db,
    userId,
    agent.id,
    db
      .update(agents)
      .set({ vapiAssistantId: null, updatedAt: nowIso() })
      .where(and(eq(agents.id, agent.id), eq(agents.userId, userId), eq(agents.vapiAssistantId, agent.vapiAssistantId))),
  );
}

/**
 * Deactivates the account's agent that holds this assistant (DELETE /api/vapi/assistant/:id, spec 1's
 * call list): the same effect as deactivating it, its imported number unpointed too (ADR 004).
 */
export async function deactivateAgentByAssistant(deps: AgentDeps, userId: string, assistantId: string): Promise<AgentRecord> {
  const row = await selectAgents(deps.db)
    .where(and(eq(agents.userId, userId), eq(agents.vapiAssistantId, assistantId)))
    .orderBy(asc(agents.id))
    .get();
  if (!row) throw notFound("Assistant not found");
  return deactivate(deps, userId, toRecord(row));
}

/** Deletes an agent; an active one loses its assistant first, and its number is freed with the delete. */
export async function deleteAgent(deps: AgentDeps, userId: string, id: number): Promise<void> {
  const { db } = deps;
  const agent = await getAgent(db, userId, id);
  if (agent.vapiAssistantId) await removeAssistant(deps, userId, agent);
  await db.batch([
    db.update(phoneNumbers).set({ agentId: null, updatedAt: nowIso() }).where(eq(phoneNumbers.agentId, id)),
    db.delete(agents).where(and(eq(agents.id, id), eq(agents.userId, userId))),
  ]);
}

/** A complete, ready-to-activate receptionist named 'New Agent', 'New Agent 2', … */
export function defaultAgentFields(company?: string | null) {
  const business = company?.trim() || "Our business";
  return {
    businessDescription:
      `${business} is a local business that serves customers in person and by phone. ` +
      "Callers reach us to ask questions, book appointments and find out what we offer.",
    services:
      "Answering questions about our products and services, booking and rescheduling appointments, " +
      "sharing opening hours and directions, and taking messages for the team.",
    agentInstructions:
      "Greet every caller warmly and introduce yourself as the virtual receptionist. Find out what the caller needs, " +
      "answer from the information you have, and book an appointment or take a message with the caller's name and " +
      "phone number. Keep answers short and friendly, and offer a call back from the team when you are unsure.",
    pricingInformation: "",
    documents: "",
  };
}

export async function createDefaultAgent(db: Database, userId: string, companyName?: string | null): Promise<AgentRecord> {
  const agentNames = () => db.select({ name: agents.name }).from(agents).where(eq(agents.userId, userId));
  // The plan's limit, the count and the names taken, read together.
  const [plan, current, taken] = await Promise.all([accountPlan(db, userId), countAgents(db, userId), agentNames()]);
  const limit = assertBelowAgentLimit(plan, current);
  let names = taken;
  // Two tries: a concurrent create can take the chosen name between reading and inserting.
  for (let attempt = 0; ; attempt++) {
    if (attempt > 0) names = await agentNames();
    const name = nextNewAgentName(names.map((n) => n.name));
    try {
      return await insertAgent(db, userId, { name, ...defaultAgentFields(companyName) }, limit);
    } catch (e) {
      if (attempt === 0 && e instanceof ApiError && e.code === "duplicate_name") continue;
      throw e;
    }
  }
}
