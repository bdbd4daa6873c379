// The audit log names who acted under "By": an admin's change and a customer's own API key alike; a
// webhook endpoint's change shows each changed field before and after.
import { QueryClientProvider } from "@tanstack/react-query";
import { render, screen, within } from "@testing-library/react";
import { afterEach, describe, expect, it, vi } from "vitest";
import { ADMIN_TEXT } from "@shared/messages";
import type { AuditEntry } from "@shared/schemas/admin";
import { createQueryClient } from "@web/lib/query-client";
import { AuditLogCard } from "./audit-log-card";

const json = (body: unknown) => new Response(JSON.stringify(body), { status: 200, headers: { "content-type": "application/json" } });

const entries: AuditEntry[] = [
  {
    id: 2,
    created_at: "2026-11-28T15:00:00.000Z",
    actor_email: "owner@shop.example",
    action: "create_api_key",
    target_email: "owner@shop.example",
    detail: { name: "Reporting", prefix: "vao_live_ab12" },
    ip: "203.0.113.7",
  },
  {
    id: 3,
    created_at: "2026-11-28T16:00:00.000Z",
    actor_email: "owner@shop.example",
    action: "update_webhook_endpoint",
    target_email: "owner@shop.example",
    detail: { endpoint_id: "we_1", url: "https://b.example.com/in", changes: { url: { before: "https://a.example.com/in", after: "https://b.example.com/in" }, events: { before: ["call.ended"], after: ["call.ended", "test"] } } },
    ip: "203.0.113.7",
  },
  {
    id: 1,
    created_at: "2026-11-28T14:00:00.000Z",
    actor_email: "admin@demo.local",
    action: "set_phone_limit",
    target_email: "owner@shop.example",
    detail: { before: 1, after: 3 },
    ip: null,
  },
  {
    id: 4,
    created_at: "2026-11-28T17:00:00.000Z",
    actor_email: "admin@demo.local",
    action: "move_account_shard",
    target_email: "owner@shop.example",
    detail: { from: "SHARD_0", to: "SHARD_1" },
    ip: null,
  },
  {
    id: 5,
    created_at: "2026-11-28T18:00:00.000Z",
    actor_email: "admin@demo.local",
    action: "set_shard_open",
    target_email: null,
    detail: { shard: "SHARD_1", open: false },
    ip: null,
  },
];

afterEach(() => {
  vi.unstubAllGlobals();
});

describe("AuditLogCard", () => {
  it("shows who acted under 'By', with each action's label and detail", async () => {
    vi.stubGlobal("fetch", vi.fn(async () => json({ entries, nextCursor: null })));
    render(
      <QueryClientProvider client={createQueryClient()}>
        <AuditLogCard />
      </QueryClientProvider>,
    );
    const keyRow = (await screen.findByText(ADMIN_TEXT.auditActions.create_api_key)).closest("tr")!;
    expect(within(keyRow).getByText("Reporting (vao_live_ab12)")).toBeTruthy();
    expect(within(keyRow).getAllByText("owner@shop.example")[0].getAttribute("data-label")).toBe("By");
    const limitRow = screen.getByText(ADMIN_TEXT.auditActions.set_phone_limit).closest("tr")!;
    expect(within(limitRow).getByText("admin@demo.local").getAttribute("data-label")).toBe("By");
    expect(within(limitRow).getByText("1 → 3")).toBeTruthy();
    const hookRow = screen.getByText(ADMIN_TEXT.auditActions.update_webhook_endpoint).closest("tr")!;
    expect(
      within(hookRow).getByText("https://b.example.com/in · url: https://a.example.com/in → https://b.example.com/in, events: call.ended → call.ended, test"),
    ).toBeTruthy();
    const moveRow = screen.getByText(ADMIN_TEXT.auditActions.move_account_shard).closest("tr")!;
    expect(within(moveRow).getByText("SHARD_0 → SHARD_1")).toBeTruthy();
    const shardRow = screen.getByText(ADMIN_TEXT.auditActions.set_shard_open).closest("tr")!;
    expect(within(shardRow).getByText("SHARD_1 closed to new accounts")).toBeTruthy();
    expect(screen.getByRole("columnheader", { name: "By" })).toBeTruthy();
    expect(screen.queryByRole("columnheader", { name: "Admin" })).toBeNull();
  });
});
