// Admin dashboard contracts (docs/product/admin.md#admin Admin Dashboard, §3 admin entities, §7 Admin): statistics, the
// user list, account flags, the voice-platform numbers, assignment, user deletion and the audit log.
import { z } from "zod";
import { emailSchema } from "./auth.ts";

/** GET /api/admin/stats/v2 (and /api/admin/stats). */
export const adminStats = z.object({
  total_users: z.number(),
  total_assistants: z.number(),
  total_calls: z.number(),
  /** Minutes of every call, one decimal. */
  total_minutes: z.number(),
  /** Only when shards failed (decision 079): their names; the call figures leave their accounts' calls out. */
  failed_shards: z.array(z.string()).optional(),
});
export type AdminStats = z.infer<typeof adminStats>;

export const ADMIN_USERS_PAGE = { default: 25, max: 100 } as const;
export const ADMIN_SEARCH_MAX = 100;

/** GET /api/admin/users/v2 (and /api/admin/users): a keyset page of accounts, newest first. */
export const adminUsersQuery = z.object({
  search: z
    .string()
    .trim()
    .max(ADMIN_SEARCH_MAX, `Search must be at most ${ADMIN_SEARCH_MAX} characters`)
    .optional()
    .transform((v) => (v ? v.toLowerCase() : undefined)),
  cursor: z
    .string()
    .regex(/^[A-Za-z0-9_-]+$/, "Cursor is not valid")
    .max(400, "Cursor is not valid")
    .optional(),
  limit: z.coerce
    .number({ error: `Limit must be a number from 1 to ${ADMIN_USERS_PAGE.max}` })
    .int(`Limit must be a number from 1 to ${ADMIN_USERS_PAGE.max}`)
    .min(1, `Limit must be a number from 1 to ${ADMIN_USERS_PAGE.max}`)
    .max(ADMIN_USERS_PAGE.max, `Limit must be a number from 1 to ${ADMIN_USERS_PAGE.max}`)
    .default(ADMIN_USERS_PAGE.default),
});
export type AdminUsersQuery = z.input<typeof adminUsersQuery>;

/** The three account flags, kept in the identity's app_metadata under these names. */
export const ACCOUNT_FLAGS = ["is_admin", "shopwindows_info", "call_app"] as const;
export type AccountFlag = (typeof ACCOUNT_FLAGS)[number];
export type AccountFlags = Record<AccountFlag, boolean>;

/** An account as the admin table lists it (docs/product/admin.md#user-management "Admin user"), with the two other flags. */
export const adminUser = z.object({
  id: z.string(),
  email: z.string(),
  username: z.string().nullable(),
  company: z.string().nullable(),
  user_metadata: z.object({ username: z.string().nullable(), company: z.string().nullable() }),
  app_metadata: z.object({ is_admin: z.boolean(), shopwindows_info: z.boolean(), call_app: z.boolean() }) satisfies z.ZodType<AccountFlags>,
  created_at: z.string(),
  total_assistants: z.number(),
  total_calls: z.number(),
  total_minutes: z.number(),
});
export type AdminUser = z.infer<typeof adminUser>;

export const adminUsersResponse = z.object({
  users: z.array(adminUser),
  nextCursor: z.string().nullable(),
  /** Only when shards failed (decision 079): their names; their accounts on the page show 0 calls and minutes. */
  failedShards: z.array(z.string()).optional(),
});
export type AdminUsersResponse = z.infer<typeof adminUsersResponse>;
/** PUT /api/admin/users/:id/flags */
export const adminUserResponse = z.object({ user: adminUser });
export type AdminUserResponse = z.infer<typeof adminUserResponse>;

/** PUT /api/admin/users/:id/flags: the flags to grant (true) or revoke (false); at least one. */
export const adminFlagsBody = z
  .looseObject({
    is_admin: z.boolean({ error: "is_admin must be true or false" }).optional(),
    shopwindows_info: z.boolean({ error: "shopwindows_info must be true or false" }).optional(),
    call_app: z.boolean({ error: "call_app must be true or false" }).optional(),
  })
  // Unknown keys are refused by name (a strict object's error names no field).
  .superRefine((v, ctx) => {
    const unknown = Object.keys(v).filter((k) => !(ACCOUNT_FLAGS as readonly string[]).includes(k));
    for (const key of unknown) ctx.addIssue({ code: "custom", message: "Unknown flag", path: [key] });
    if (unknown.length === 0 && !ACCOUNT_FLAGS.some((f) => v[f] !== undefined)) {
      ctx.addIssue({ code: "custom", message: "Name at least one flag", path: ["is_admin"] });
    }
  })
  .transform((v): Partial<AccountFlags> => {
    const out: Partial<AccountFlags> = {};
    for (const f of ACCOUNT_FLAGS) if (v[f] !== undefined) out[f] = v[f];
    return out;
  });
export type AdminFlagsBody = z.infer<typeof adminFlagsBody>;

export const adminUserIdParam = z.object({ id: z.string().min(1, "id is required").max(100, "id is not valid") });

/** A voice-platform number as the admin table lists it (docs/product/admin.md#available-phone-numbers "Admin voice-provider number"). */
export const adminPhoneNumber = z.object({
  id: z.string(),
  phoneNumber: z.string(),
  number: z.string(),
  status: z.string(),
  name: z.string().nullable(),
  /** The holder's email, or null when the number is in the pool. */
  assignedTo: z.string().nullable(),
  assignedUserId: z.string().nullable(),
});
export type AdminPhoneNumber = z.infer<typeof adminPhoneNumber>;
export const adminPhoneNumbersResponse = z.object({ numbers: z.array(adminPhoneNumber) });
export type AdminPhoneNumbersResponse = z.infer<typeof adminPhoneNumbersResponse>;

/** POST /api/admin/assign-phone-number */
export const assignPhoneNumberBody = z.object({
  user_id: z.string({ error: "user_id is required" }).trim().min(1, "user_id is required").max(100, "user_id is not valid"),
  phone_number: z
    .string({ error: "phone_number is required" })
    .trim()
    .regex(/^\+[1-9]\d{6,14}$/, "phone_number must be an E.164 number"),
  vapi_number_id: z.string({ error: "vapi_number_id is required" }).trim().min(1, "vapi_number_id is required").max(200, "vapi_number_id is not valid"),
});
export type AssignPhoneNumberBody = z.infer<typeof assignPhoneNumberBody>;
export const assignPhoneNumberResponse = z.object({ success: z.literal(true), number: adminPhoneNumber });
export type AssignPhoneNumberResponse = z.infer<typeof assignPhoneNumberResponse>;

/** POST /api/admin/cleanup-user */
export const cleanupUserBody = z.object({ email: emailSchema });
export type CleanupUserBody = z.infer<typeof cleanupUserBody>;
export const cleanupUserResponse = z.object({
  success: z.literal(true),
  /** The first account deleted (an email may have had several: userIds lists them all). */
  userId: z.string(),
  /** Every account deleted under the email. */
  userIds: z.array(z.string()),
  deleted: z.record(z.string(), z.number()),
  assistantsReleased: z.number(),
  numbersReturnedToPool: z.number(),
  numbersReleased: z.number(),
  /**
   * Only when shards failed (decision 079): the accounts are deleted, but their rows on these shards
   * are not yet; the nightly sweep of deleted accounts removes them.
   */
  failedShards: z.array(z.string()).optional(),
});
export type CleanupUserResponse = z.infer<typeof cleanupUserResponse>;

export const AUDIT_ACTIONS = [
  "set_flags",
  "assign_phone_number",
  "delete_user",
  "set_phone_limit",
  "create_api_key",
  "revoke_api_key",
  "create_webhook_endpoint",
  "update_webhook_endpoint",
  "delete_webhook_endpoint",
  "rotate_webhook_secret",
  "move_account_shard",
  "set_shard_open",
] as const;
export type AuditAction = (typeof AUDIT_ACTIONS)[number];

export const auditEntry = z.object({
  id: z.number(),
  created_at: z.string(),
  actor_email: z.string(),
  action: z.enum(AUDIT_ACTIONS),
  target_email: z.string().nullable(),
  detail: z.record(z.string(), z.unknown()),
  ip: z.string().nullable(),
});
export type AuditEntry = z.infer<typeof auditEntry>;
export const auditLogResponse = z.object({ entries: z.array(auditEntry), nextCursor: z.number().nullable() });
export type AuditLogResponse = z.infer<typeof auditLogResponse>;

export const auditLogQuery = z.object({
  before: z.coerce.number({ error: "before must be a number" }).int("before must be a whole number").positive("before must be positive").optional(),
  limit: z.coerce
    .number({ error: "Limit must be a number from 1 to 100" })
    .int("Limit must be a number from 1 to 100")
    .min(1, "Limit must be a number from 1 to 100")
    .max(100, "Limit must be a number from 1 to 100")
    .default(20),
});

// ---- shards (decision 076) and moving an account between them (decision 080) -----------------------

const SHARD_NAME = /^SHARD_(0|[1-9]\d{0,3})$/;
const shardName = (field: string) =>
  z.string({ error: `${field} is required` }).trim().regex(SHARD_NAME, `${field} must name a shard, as SHARD_0`);

/** GET /api/admin/shards: each bound shard's size (the database's own), accounts, room to D1's 10 GB, and whether it takes new accounts. */
export const shardStatusView = z.object({
  name: z.string(),
  open: z.boolean(),
  size_bytes: z.number(),
  accounts: z.number(),
  room_bytes: z.number(),
  moves_in: z.number(),
  moves_out: z.number(),
});
export type ShardStatusView = z.infer<typeof shardStatusView>;
export const shardStatusResponse = z.object({ shards: z.array(shardStatusView), limit_bytes: z.number() });
export type ShardStatusResponse = z.infer<typeof shardStatusResponse>;

/** PUT /api/admin/shards/:name */
export const shardNameParam = z.object({ name: shardName("name") });
export const shardOpenBody = z.object({ open: z.boolean({ error: "open must be true or false" }) });
export type ShardOpenBody = z.infer<typeof shardOpenBody>;
export const shardResponse = z.object({ shard: shardStatusView });
export type ShardResponse = z.infer<typeof shardResponse>;

/** POST /api/admin/shards/moves: move an account (its id) to a shard. */
export const shardMoveBody = z.object({
  account: z.string({ error: "account is required" }).trim().min(1, "account is required").max(100, "account is not valid"),
  shard: shardName("shard"),
});
export type ShardMoveBody = z.infer<typeof shardMoveBody>;

export const SHARD_MOVE_PHASES = ["copying", "catching_up", "switched", "final", "deleting", "done"] as const;
export const shardMoveView = z.object({
  id: z.number(),
  account: z.string(),
  from_shard: z.string(),
  to_shard: z.string(),
  phase: z.enum(SHARD_MOVE_PHASES),
  rows_copied: z.number(),
  started_by: z.string(),
  started_at: z.string(),
  updated_at: z.string(),
  switched_at: z.string().nullable(),
  finished_at: z.string().nullable(),
  /** The last step's failure; the next step tries again. */
  error: z.string().nullable(),
});
export type ShardMoveView = z.infer<typeof shardMoveView>;
export const shardMoveResponse = z.object({ move: shardMoveView });
export type ShardMoveResponse = z.infer<typeof shardMoveResponse>;
export const shardMovesResponse = z.object({ moves: z.array(shardMoveView) });
export type ShardMovesResponse = z.infer<typeof shardMovesResponse>;
