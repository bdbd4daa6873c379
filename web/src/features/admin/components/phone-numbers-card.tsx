// Available Phone Numbers (docs/product/screens-and-routes.md#route-table): the voice platform's numbers, their status ('active' when
// unsaid), name ('Unlabeled') and holder ('Unassigned').
import { formatPhone } from "@shared/format";
import { ADMIN_TEXT } from "@shared/messages";
import { Badge } from "@web/components/ui/badge";
import { TableCell, TableRow } from "@web/components/ui/table";
import { TableCard } from "./table-card";
import { usePlatformNumbers } from "../api/admin";

export function PhoneNumbersCard() {
  const numbers = usePlatformNumbers();
  const c = ADMIN_TEXT.numberColumns;
  const rows = numbers.data?.numbers ?? [];
  return (
    <TableCard
      title={ADMIN_TEXT.availablePhoneNumbers}
      columns={[c.phoneNumber, c.status, c.name, c.assignedTo]}
      states={{ query: numbers, empty: rows.length === 0, loadingLabel: "Loading phone numbers", failedText: ADMIN_TEXT.numbersFailed, emptyText: ADMIN_TEXT.noNumbers }}
    >
      {rows.map((n) => {
        const status = n.status || ADMIN_TEXT.defaultStatus;
        return (
          <TableRow key={n.id}>
            <TableCell data-label={c.phoneNumber} className="font-medium whitespace-nowrap tabular-nums">{formatPhone(n.phoneNumber || n.number)}</TableCell>
            <TableCell data-label={c.status}>
              <Badge variant={status === "active" ? "success" : "outline"}>{status}</Badge>
            </TableCell>
            <TableCell data-label={c.name}>{n.name || ADMIN_TEXT.unlabeled}</TableCell>
            <TableCell data-label={c.assignedTo} className={n.assignedTo ? "[overflow-wrap:anywhere]" : "text-muted-foreground"}>{n.assignedTo ?? ADMIN_TEXT.unassigned}</TableCell>
          </TableRow>
        );
      })}
    </TableCard>
  );
}
