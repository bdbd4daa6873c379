// The nightly reports kept on the server, under the Daily Report section: newest first, a page at a
// time (GET /api/daily-reports keyset pages), with Newer and Older to move between pages and a
// download per report.
import { useQuery } from "@tanstack/react-query";
import { ChevronLeft, ChevronRight, Download } from "lucide-react";
import { useId, useState } from "react";
import { dailyReportFileName } from "@shared/daily-report";
import { DASHBOARD_TEXT } from "@shared/messages";
import { Button } from "@web/components/ui/button";
import { toast } from "@web/lib/toast-store";
import { downloadFile } from "@web/lib/download";
import { dailyReportsQueryOptions } from "../api/dashboard";
import { dailyReportFileUrl } from "../api/dashboard-urls";
import { rangeLabel, SectionSkeleton, type Applied } from "./section";

export const STORED_REPORTS_TEXT = {
  newer: "Newer",
  older: "Older",
  pages: "Pages of reports",
} as const;

/**
 * The list of stored reports of the section's dates and store (its header's). `cursors` holds the
 * cursor of each page shown so far (undefined for the first), so Newer goes back one page and Older
 * asks for the page after the last report shown. A refresh of the dashboard (a new generation, which
 * is also when the dates and store change) starts again at the newest page.
 */
export function StoredReports({ applied, generation }: { applied: Applied; generation: number }) {
  const [paging, setPaging] = useState<{ generation: number; cursors: (string | undefined)[] }>({ generation, cursors: [undefined] });
  const cursors = paging.generation === generation ? paging.cursors : [undefined];
  const cursor = cursors[cursors.length - 1];
  const list = useQuery(dailyReportsQueryOptions(applied, generation, cursor));
  const listId = useId();
  const items = list.data?.reports ?? [];
  const nextCursor = list.data?.nextCursor ?? null;
  const hasNewer = cursors.length > 1;

  return (
    <div className="grid gap-2">
      <div>
        <h3 id={listId} className="text-sm font-medium">
          {DASHBOARD_TEXT.recentReports}
        </h3>
        <p className="text-xs text-muted-foreground">{DASHBOARD_TEXT.recentReportsScope(rangeLabel(applied), applied.store || DASHBOARD_TEXT.allStores)}</p>
      </div>
      {list.isPending ? (
        <SectionSkeleton label={DASHBOARD_TEXT.loading} height="h-12" />
      ) : items.length === 0 ? (
        <p className="text-sm text-muted-foreground">{DASHBOARD_TEXT.noReports}</p>
      ) : (
        <ul aria-labelledby={listId} className="grid gap-1">
          {items.map((r) => {
            const name = dailyReportFileName({ startDate: r.date, endDate: r.date, single: true, store: r.store });
            return (
              <li key={r.id} className="flex min-w-0 items-center justify-between gap-2 text-sm">
                <span className="truncate">
                  {r.date} · {r.store ?? DASHBOARD_TEXT.allStores} · {r.rows} rows
                </span>
                <Button
                  variant="ghost"
                  size="sm"
                  aria-label={`${DASHBOARD_TEXT.download} ${name}`}
                  onClick={() =>
                    void downloadFile(dailyReportFileUrl(r.id), name).catch(() => toast({ variant: "destructive", title: DASHBOARD_TEXT.dailyReportFailed }))
                  }
                >
                  <Download aria-hidden />
                  {DASHBOARD_TEXT.download}
                </Button>
              </li>
            );
          })}
        </ul>
      )}
      {hasNewer || nextCursor ? (
        <nav aria-label={STORED_REPORTS_TEXT.pages} className="flex justify-between gap-2">
          <Button variant="outline" size="sm" disabled={!hasNewer} onClick={() => setPaging({ generation, cursors: cursors.slice(0, -1) })}>
            <ChevronLeft aria-hidden />
            {STORED_REPORTS_TEXT.newer}
          </Button>
          <Button variant="outline" size="sm" disabled={!nextCursor} onClick={() => nextCursor && setPaging({ generation, cursors: [...cursors, nextCursor] })}>
            {STORED_REPORTS_TEXT.older}
            <ChevronRight aria-hidden />
          </Button>
        </nav>
      ) : null}
    </div>
  );
}
