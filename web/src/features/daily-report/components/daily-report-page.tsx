// /daily-report (docs/product/dashboard-and-counts.md#the-daily-report-generator "Daily Report Generator screen", §8): one New York day, 'Generate Daily
// Report' downloads its CSV; the page lists what the file holds in three groups. Only users with
// shopwindows_info may use it (docs/product/dashboard-and-counts.md#sections-and-who-sees-them).
import { Download } from "lucide-react";
import { useState, type FormEvent } from "react";
import { DAILY_REPORT_COLUMNS, DAILY_REPORT_GROUPS } from "@shared/daily-report";
import { DAILY_REPORT_TEXT, DASHBOARD_TEXT } from "@shared/messages";
import type { CurrentUserView } from "@shared/schemas/auth";
import { FIRST_DAY, LAST_DAY } from "@shared/schemas/counts";
import { nyYesterday } from "@shared/ny-time";
import { AccessDenied } from "@web/components/layout/access-denied";
import { PageHeader } from "@web/components/layout/page-header";
import { Card, CardContent, CardHeader, CardTitle } from "@web/components/ui/card";
import { FormField } from "@web/components/ui/form-field";
import { SubmitButton } from "@web/components/ui/submit-button";
import { toast } from "@web/lib/toast-store";
import { useDownloadDailyReport } from "../api/download-daily-report";

/** What the CSV holds, in the screen's three groups: the report's own columns, so the two agree. */
export const REPORT_GROUPS = DAILY_REPORT_GROUPS.map((title) => ({
  title,
  items: DAILY_REPORT_COLUMNS.filter((c) => c.group === title).map((c) => c.key),
}));

type User = Pick<CurrentUserView, "shopwindows_info">;

/** `date`: the day the screen opens on (a link's ?date=), yesterday without one. */
export function DailyReportPage({ user, date }: { user: User; date?: string }) {
  if (!user.shopwindows_info) return <AccessDenied description={DAILY_REPORT_TEXT.denied} />;
  return <DailyReport initialDate={date} />;
}

function DailyReport({ initialDate }: { initialDate?: string }) {
  const [date, setDate] = useState(() => initialDate ?? nyYesterday());
  const [dateError, setDateError] = useState<string>();
  const download = useDownloadDailyReport();

  function submit(e: FormEvent) {
    e.preventDefault();
    if (!date) {
      setDateError(DAILY_REPORT_TEXT.dateRequired);
      return;
    }
    setDateError(undefined);
    download.mutate(date, {
      onSuccess: () => toast({ title: DASHBOARD_TEXT.dailyReportDone }),
      onError: () => toast({ variant: "destructive", title: DASHBOARD_TEXT.dailyReportFailed }),
    });
  }

  return (
    <div className="mx-auto w-full max-w-4xl">
      <PageHeader title={DAILY_REPORT_TEXT.title} description={DAILY_REPORT_TEXT.intro} />
      <Card className="mb-6">
        <CardContent className="pt-6">
          <form noValidate onSubmit={submit} className="flex flex-col gap-4 sm:flex-row sm:items-start">
            <div className="sm:w-64">
              <FormField
                label={DAILY_REPORT_TEXT.date}
                type="date"
                min={FIRST_DAY}
                max={LAST_DAY}
                value={date}
                onChange={(e) => setDate(e.target.value)}
                error={dateError}
              />
            </div>
            <SubmitButton className="sm:mt-7" pending={download.isPending} pendingLabel={DAILY_REPORT_TEXT.generating} icon={<Download aria-hidden />}>
              {DASHBOARD_TEXT.generateDailyReport}
            </SubmitButton>
          </form>
          {download.isError ? (
            <p role="alert" className="mt-3 text-sm font-medium text-destructive">
              {DASHBOARD_TEXT.dailyReportError}
            </p>
          ) : null}
        </CardContent>
      </Card>
      <h2 className="mb-3 text-sm font-medium text-muted-foreground">{DAILY_REPORT_TEXT.contents}</h2>
      <div className="grid gap-4 md:grid-cols-3">
        {REPORT_GROUPS.map((g) => (
          <Card key={g.title}>
            <CardHeader>
              <CardTitle className="text-base">{g.title}</CardTitle>
            </CardHeader>
            <CardContent>
              <ul className="grid gap-1 text-sm">
                {g.items.map((item) => (
                  <li key={item}>{item}</li>
                ))}
              </ul>
            </CardContent>
          </Card>
        ))}
      </div>
    </div>
  );
}
