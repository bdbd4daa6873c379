// User Management (docs/product/screens-and-routes.md#route-table): search on the server, keyset pages, the Admin tick and the two other
// flags as checkboxes (granted or revoked at once), and the Assign Phone / Delete actions per account.
// Every column fits a 1280 px window without sideways scrolling (the address wraps before its '@', the
// flags and the actions stack); below that each account is a card.
import { Check, Phone, Search, Trash2 } from "lucide-react";
import { useEffect, useId, useState } from "react";
import { formatCount, formatDecimal, formatTimestamp } from "@shared/format";
import { ADMIN_TEXT } from "@shared/messages";
import { ACCOUNT_FLAGS, type AccountFlag, type AdminUser } from "@shared/schemas/admin";
import { Button } from "@web/components/ui/button";
import { Input } from "@web/components/ui/input";
import { TableCell, TableRow } from "@web/components/ui/table";
import { toast } from "@web/lib/toast-store";
import { errorMessage } from "@web/lib/api";
import { useAdminUsers, useSetUserFlags } from "../api/admin";
import { TableCard } from "./table-card";

const SEARCH_DELAY_MS = 300;

function FlagBox({ user, flag, selfId }: { user: AdminUser; flag: AccountFlag; selfId: string }) {
  const setFlags = useSetUserFlags();
  // Shown at once while the change is saved; the list's own value again once it is reloaded.
  const [pending, setPending] = useState<boolean | null>(null);
  const checked = pending ?? user.app_metadata[flag];
  // An admin cannot remove their own admin flag (the server refuses it too).
  const locked = flag === "is_admin" && user.id === selfId;
  return (
    <label className="inline-flex items-center gap-1.5 text-sm whitespace-nowrap">
      <input
        type="checkbox"
        className="size-4 accent-primary"
        checked={checked}
        disabled={locked || setFlags.isPending}
        aria-label={`${ADMIN_TEXT.flagLabels[flag]}: ${user.email}`}
        onChange={(e) => {
          const on = e.target.checked;
          setPending(on);
          setFlags.mutate(
            { id: user.id, flags: { [flag]: on } },
            {
              onSuccess: () => toast({ title: ADMIN_TEXT.flagsUpdated, description: `${user.email}: ${ADMIN_TEXT.flagLabels[flag]} ${on ? "on" : "off"}` }),
              onError: (err) => toast({ variant: "destructive", title: ADMIN_TEXT.flagsFailed, description: errorMessage(err, ADMIN_TEXT.flagsFailed) }),
              onSettled: () => setPending(null),
            },
          );
        }}
      />
      {flag === "is_admin" ? <span className="sr-only sm:not-sr-only">{checked ? <Check className="size-4 text-success" aria-hidden /> : null}</span> : ADMIN_TEXT.flagLabels[flag]}
    </label>
  );
}

/** An address that may wrap before its '@' (and anywhere in a very long part), so the column stays narrow. */
function EmailText({ email }: { email: string }) {
  const at = email.lastIndexOf("@");
  if (at <= 0) return email;
  return (
    <>
      {email.slice(0, at)}
      <wbr />
      {email.slice(at)}
    </>
  );
}

export function UserManagement({
  selfId,
  onAssign,
  onDelete,
}: {
  selfId: string;
  onAssign: (user: AdminUser) => void;
  onDelete: (user: AdminUser) => void;
}) {
  const [text, setText] = useState("");
  const [search, setSearch] = useState("");
  const searchId = useId();
  useEffect(() => {
    const t = setTimeout(() => setSearch(text.trim()), SEARCH_DELAY_MS);
    return () => clearTimeout(t);
  }, [text]);
  const users = useAdminUsers(search);
  const rows = users.data?.pages.flatMap((p) => p.users) ?? [];
  const c = ADMIN_TEXT.columns;

  return (
    <TableCard
      title={ADMIN_TEXT.userManagement}
      headerClassName="gap-3 sm:flex-row sm:items-center sm:justify-between"
      header={
        <div className="relative w-full sm:w-80">
          <Search className="pointer-events-none absolute top-1/2 left-3 size-4 -translate-y-1/2 text-muted-foreground" aria-hidden />
          <label htmlFor={searchId} className="sr-only">
            {ADMIN_TEXT.searchUsers}
          </label>
          <Input id={searchId} type="search" className="pl-9" placeholder={ADMIN_TEXT.searchPlaceholder} value={text} onChange={(e) => setText(e.target.value)} />
        </div>
      }
      columns={[
        c.email,
        c.username,
        c.company,
        c.created,
        { label: c.assistants, className: "text-right" },
        { label: c.calls, className: "text-right" },
        { label: c.minutes, className: "text-right" },
        c.admin,
        c.access,
        c.actions,
      ]}
      states={{ query: users, empty: rows.length === 0, loadingLabel: "Loading users", failedText: ADMIN_TEXT.usersFailed, emptyText: ADMIN_TEXT.noUsers, skeletonRows: 4 }}
      stackBelow="xl"
      more={users}
    >
      {rows.map((u) => (
        <TableRow key={u.id}>
          <TableCell data-label={c.email} className="font-medium [overflow-wrap:anywhere] xl:max-w-52 xl:min-w-32">
            <EmailText email={u.email} />
          </TableCell>
          <TableCell data-label={c.username} className="[overflow-wrap:anywhere]">{u.username ?? "—"}</TableCell>
          <TableCell data-label={c.company} className="[overflow-wrap:anywhere]">{u.company ?? "—"}</TableCell>
          <TableCell data-label={c.created} className="tabular-nums">{formatTimestamp(u.created_at)}</TableCell>
          <TableCell data-label={c.assistants} className="text-right tabular-nums">{formatCount(u.total_assistants)}</TableCell>
          <TableCell data-label={c.calls} className="text-right tabular-nums">{formatCount(u.total_calls)}</TableCell>
          <TableCell data-label={c.minutes} className="text-right tabular-nums">{formatDecimal(u.total_minutes, 1)}</TableCell>
          <TableCell data-label={c.admin}>
            <FlagBox user={u} flag="is_admin" selfId={selfId} />
          </TableCell>
          <TableCell data-label={c.access}>
            <div className="flex flex-wrap justify-end gap-x-3 gap-y-1.5 xl:flex-col xl:justify-start">
              {ACCOUNT_FLAGS.filter((f) => f !== "is_admin").map((f) => (
                <FlagBox key={f} user={u} flag={f} selfId={selfId} />
              ))}
            </div>
          </TableCell>
          <TableCell data-label={c.actions}>
            <div className="flex flex-wrap justify-end gap-2 xl:flex-col xl:items-stretch">
              <Button size="sm" variant="outline" onClick={() => onAssign(u)} aria-label={`${ADMIN_TEXT.assignPhone}: ${u.email}`}>
                <Phone aria-hidden />
                {ADMIN_TEXT.assignPhone}
              </Button>
              <Button
                size="sm"
                variant="destructive"
                onClick={() => onDelete(u)}
                disabled={u.id === selfId}
                aria-label={`${ADMIN_TEXT.delete}: ${u.email}`}
              >
                <Trash2 aria-hidden />
                {ADMIN_TEXT.delete}
              </Button>
            </div>
          </TableCell>
        </TableRow>
      ))}
    </TableCard>
  );
}
