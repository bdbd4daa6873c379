// Available Phone Numbers (spec 2 §2): the voice platform's numbers, their status ('active' when
// unsaid), name ('Unlabeled') and holder ('Unassigned').
import { formatPhone } from "@shared/format";
import { ADMIN_TEXT } from "@shared/messages";
import { Badge } from "@web/components/ui/badge";
import { Card, CardContent, CardHeader, CardTitle } from "@web/components/ui/card";
import { LoadMore, TableStates } from "./table-states";
import { Table, TableBody, TableCell, TableHead, TableHeader, TableRow } from "@web/components/ui/table";
import { usePlatformNumbers } from "../api/admin";

export function PhoneNumbersCard() {
  const numbers = usePlatformNumbers();
  const c = ADMIN_TEXT.numberColumns;
  const rows = numbers.data?.numbers ?? [];
  return (
    <Card>
      <CardHeader>
        <CardTitle>{ADMIN_TEXT.availablePhoneNumbers}</CardTitle>
      </CardHeader>
      <CardContent className="p-0 sm:p-0">
        <div>
          <Table>
            <TableHeader>
              <TableRow>
                <TableHead>{c.phoneNumber}</TableHead>
                <TableHead>{c.status}</TableHead>
                <TableHead>{c.name}</TableHead>
                <TableHead>{c.assignedTo}</TableHead>
              </TableRow>
            </TableHeader>
            <TableBody>
              {rows.map((n) => {
                const status = n.status || ADMIN_TEXT.defaultStatus;
                return (
                  <TableRow key={n.id}>
                    <TableCell className="font-medium whitespace-nowrap tabular-nums">{formatPhone(n.phoneNumber || n.number)}</TableCell>
                    <TableCell>
                      <Badge variant={status === "active" ? "success" : "outline"}>{status}</Badge>
                    </TableCell>
                    <TableCell>{n.name || ADMIN_TEXT.unlabeled}</TableCell>
                    <TableCell className={n.assignedTo ? "" : "text-muted-foreground"}>{n.assignedTo ?? ADMIN_TEXT.unassigned}</TableCell>
                  </TableRow>
                );
              })}
            </TableBody>
          </Table>
        </div>
        <TableStates query={numbers} empty={rows.length === 0} loadingLabel="Loading phone numbers" failedText={ADMIN_TEXT.numbersFailed} emptyText={ADMIN_TEXT.noNumbers} />
      </CardContent>
    </Card>
  );
}
