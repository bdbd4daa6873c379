// The /settings "Daily report by email" section (decision 060): a switch, off by default, for users
// who may see the daily report; the explanation and the address the mail goes to.
import { REPORT_MAIL_TEXT } from "@shared/messages";
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from "@web/components/ui/card";
import { Spinner } from "@web/components/ui/spinner";
import { toast } from "@web/lib/toast-store";
import { ApiError, errorMessage } from "@web/lib/api";
import { cn } from "@web/lib/utils";
import { useId } from "react";
import { useReportMail, useSetReportMail } from "../api/report-mail";

export function ReportMailSection() {
  const setting = useReportMail();
  const change = useSetReportMail();
  const labelId = useId();
  const hintId = useId();
  const on = setting.data?.subscribed ?? false;

  const toggle = async () => {
    const next = !on;
    try {
      await change.mutateAsync(next);
      toast(next ? { title: REPORT_MAIL_TEXT.on, description: REPORT_MAIL_TEXT.onText } : { title: REPORT_MAIL_TEXT.off, description: REPORT_MAIL_TEXT.offText });
    } catch (err) {
      const description = err instanceof ApiError && err.status === 429 ? REPORT_MAIL_TEXT.tooManyChanges : errorMessage(err, REPORT_MAIL_TEXT.updateFailed);
      toast({ variant: "destructive", title: REPORT_MAIL_TEXT.updateFailed, description });
    }
  };

  return (
    <Card>
      <CardHeader>
        <CardTitle>{REPORT_MAIL_TEXT.section}</CardTitle>
        <CardDescription>{REPORT_MAIL_TEXT.sectionText}</CardDescription>
      </CardHeader>
      <CardContent className="grid gap-3 text-sm">
        {setting.isPending ? (
          <Spinner className="size-5" />
        ) : setting.isError ? (
          <p role="alert" className="text-destructive">
            {errorMessage(setting.error, REPORT_MAIL_TEXT.loadFailed)}
          </p>
        ) : (
          <>
            <div className="flex items-center justify-between gap-4">
              <span id={labelId} className="font-medium">
                {REPORT_MAIL_TEXT.switchLabel}
              </span>
              <button
                type="button"
                role="switch"
                aria-checked={on}
                aria-labelledby={labelId}
                aria-describedby={hintId}
                disabled={change.isPending}
                onClick={() => void toggle()}
                className={cn(
                  "relative inline-flex h-6 w-11 shrink-0 items-center rounded-full transition-colors focus-visible:ring-2 focus-visible:ring-ring focus-visible:ring-offset-2 focus-visible:outline-none disabled:opacity-60",
                  on ? "bg-primary" : "bg-muted-foreground/40",
                )}
              >
                <span aria-hidden className={cn("inline-block size-5 rounded-full bg-white shadow transition-transform", on ? "translate-x-5" : "translate-x-0.5")} />
              </button>
            </div>
            <p id={hintId} className="text-muted-foreground">
              {REPORT_MAIL_TEXT.sendsTo(setting.data.email)}
            </p>
          </>
        )}
      </CardContent>
    </Card>
  );
}
