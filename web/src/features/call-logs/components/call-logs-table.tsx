// The call log table (docs/product/screens-and-routes.md#route-table): Date & Time, Phone Number, Duration, Status, Summary, Actions.
// Below the md breakpoint each row becomes a small card (one DOM, so the table semantics stay):
// the column names move into the cells as generated labels that screen readers skip.
import { Eye } from "lucide-react";
import { formatDuration, formatPhone, formatTimestamp, truncateSummary } from "@shared/format";
import { CALL_LOG_TEXT } from "@shared/messages";
import type { CallLogView } from "@shared/schemas/call-logs";
import { Button } from "@web/components/ui/button";
import { Table, TableBody, TableCell, TableHead, TableHeader, TableRow } from "@web/components/ui/table";
import { cn } from "@web/lib/utils";
import { CallStatusBadge } from "@web/components/calls/call-status-badge";

// `content: attr(...) / ""` gives the label empty alternative text: seen, not read twice.
const cardCell =
  "max-md:p-0 max-md:before:mb-0.5 max-md:before:block max-md:before:text-xs max-md:before:font-medium max-md:before:text-muted-foreground max-md:before:content-[attr(data-label)_/_'']";

export function CallLogsTable({ logs, onView }: { logs: readonly CallLogView[]; onView: (log: CallLogView) => void }) {
  return (
    <Table>
      <TableHeader className="max-md:sr-only">
        <TableRow className="hover:bg-transparent">
          <TableHead>{CALL_LOG_TEXT.dateTime}</TableHead>
          <TableHead>{CALL_LOG_TEXT.phoneNumber}</TableHead>
          <TableHead>{CALL_LOG_TEXT.duration}</TableHead>
          <TableHead>{CALL_LOG_TEXT.status}</TableHead>
          <TableHead className="min-w-56">{CALL_LOG_TEXT.summary}</TableHead>
          <TableHead className="text-right">{CALL_LOG_TEXT.actions}</TableHead>
        </TableRow>
      </TableHeader>
      <TableBody>
        {logs.map((log) => (
          <TableRow key={log.id} className="max-md:grid max-md:grid-cols-2 max-md:gap-x-4 max-md:gap-y-3 max-md:px-4 max-md:py-4">
            <TableCell data-label={CALL_LOG_TEXT.dateTime} className={cn(cardCell, "whitespace-nowrap tabular-nums")}>
              <time dateTime={log.start_time}>{formatTimestamp(log.start_time)}</time>
            </TableCell>
            <TableCell data-label={CALL_LOG_TEXT.phoneNumber} className={cn(cardCell, "whitespace-nowrap tabular-nums")}>
              {formatPhone(log.phone_number)}
            </TableCell>
            <TableCell data-label={CALL_LOG_TEXT.duration} className={cn(cardCell, "whitespace-nowrap tabular-nums")}>
              {formatDuration(log.duration)}
            </TableCell>
            <TableCell data-label={CALL_LOG_TEXT.status} className={cardCell}>
              <CallStatusBadge status={log.status} />
            </TableCell>
            <TableCell
              data-label={CALL_LOG_TEXT.summary}
              className={cn(cardCell, "text-muted-foreground max-md:col-span-2")}
              title={log.summary ?? undefined}
            >
              {truncateSummary(log.summary)}
            </TableCell>
            <TableCell className="text-right max-md:col-span-2 max-md:p-0 max-md:text-left">
              <Button variant="outline" size="sm" className="max-md:w-full" onClick={() => onView(log)}>
                <Eye aria-hidden />
                {CALL_LOG_TEXT.viewDetails}
              </Button>
            </TableCell>
          </TableRow>
        ))}
      </TableBody>
    </Table>
  );
}
