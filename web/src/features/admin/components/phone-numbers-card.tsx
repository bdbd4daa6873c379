// Available Phone Numbers (spec 2 §2): the voice platform's numbers, their status ('active' when
// unsaid), name ('Unlabeled') and holder ('Unassigned').
import { formatPhone } from "@shared/format";
import { ADMIN_TEXT } from "@shared/messages";
import { Badge } from "@web/components/ui/badge";
import { Card, CardContent, CardHeader, CardTitle } from "@web/components/ui/card";
import { LoadingStatus, Skeleton } from "@web/components/ui/skeleton";
import { Table, TableBody, TableCell, TableHead, TableHeader, TableRow } from "@web/components/ui/table";
import { errorMessage } from "@web/lib/api";
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
        {numbers.isPending ? (
          <div className="grid gap-3 p-4" aria-busy="true">
            <LoadingStatus label="Loading phone numbers" />
            <Skeleton className="h-6 w-full" />
            <Skeleton className="h-6 w-full" />
          </div>
        ) : numbers.isError ? (
          <p className="p-4 text-sm text-destructive" role="alert">
            {errorMessage(numbers.error, ADMIN_TEXT.numbersFailed)}
          </p>
        ) : rows.length === 0 ? (
          <p className="p-4 text-sm text-muted-foreground">{ADMIN_TEXT.noNumbers}</p>
        ) : null}
      </CardContent>
    </Card>
  );
}
