// The shards in the Admin Dashboard's API (decision 080), admins only: each shard's status, opening or
// closing one to new accounts, and moving an account to another shard (the minute cron carries the
// move out). Every change writes its audit entry in the same batch. npm run shards drives the same code.
import type { Context } from "hono";
import type { ShardMoveResponse, ShardMovesResponse, ShardResponse, ShardStatusResponse } from "@shared/schemas/admin";
import type { AppEnv } from "../app-env";
import { adminActor } from "../context/request-deps";
import { shardBindings, shardDatabase } from "../db/shards";
import { ApiError } from "../lib/errors";
import { MoveRefused, listMoves, startMove, type MoveDeps } from "../services/shards/move";
import { moveView, shardStatus } from "../services/shards/status";
import { DeclaredRoutes } from "./serve";

/** The directory and the shards, each shard on its primary (a move writes what it then reads). */
function shardDeps(c: Context<AppEnv>): MoveDeps {
  const env = c.env as unknown as Record<string, unknown>;
  return {
    directory: c.var.db,
    bound: shardBindings(env),
    shard: (name) => shardDatabase(env, name).withSession("first-primary") as unknown as D1Database,
    text: c.env.CALL_TEXT,
  };
}

/** A refused move as the error contract's answer, naming the field. */
const refusal = (e: unknown) =>
  e instanceof MoveRefused ? new ApiError(e.status, e.message, e.status === 404 ? "not_found" : e.status === 409 ? "conflict" : "validation_error", e.field) : e;

export const adminShardRoutes = new DeclaredRoutes()
  .serve("GET /api/admin/shards", async (c) => {
    const deps = shardDeps(c);
    return c.json((await shardStatus(deps.directory, deps.bound, deps.shard)) satisfies ShardStatusResponse);
  })
  .serve("PUT /api/admin/shards/:name", async (c) => {
    const { name } = c.req.valid("param");
    const deps = shardDeps(c);
    if (!deps.bound.includes(name)) throw new ApiError(404, `${name} is not a shard of this Worker`, "not_found", "name");
    // The change and the status read back in one directory batch.
    const status = await shardStatus(deps.directory, deps.bound, deps.shard, { actor: adminActor(c), name, open: c.req.valid("json").open });
    return c.json({ shard: status.shards.find((s) => s.name === name)! } satisfies ShardResponse);
  })
  .serve("GET /api/admin/shards/moves", async (c) => c.json({ moves: (await listMoves(c.var.db)).map(moveView) } satisfies ShardMovesResponse))
  .serve("POST /api/admin/shards/moves", async (c) => {
    const body = c.req.valid("json");
    const actor = adminActor(c);
    const move = await startMove(shardDeps(c), { account: body.account, shard: body.shard, startedBy: actor.email, actor }).catch((e: unknown) => {
      throw refusal(e);
    });
    return c.json({ move: moveView(move) } satisfies ShardMoveResponse, 202);
  });
