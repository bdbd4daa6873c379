// Daily Report (docs/product/dashboard-and-counts.md#sections-and-who-sees-them): generates the report file for the applied dates and store, and lists the
// reports already stored for those dates and that store.
import { Download, LoaderCircle } from "lucide-react";
import { useState } from "react";
import { dailyReportFileName } from "@shared/daily-report";
import { DASHBOARD_TEXT } from "@shared/messages";
import { downloadFile, type DownloadProgress } from "@web/lib/download";
import { Button } from "@web/components/ui/button";
import { toast } from "@web/lib/toast-store";
import { dailyReportUrl } from "../api/dashboard-urls";
import { ProgressLine, Section, SectionError, type Applied } from "./section";
import { StoredReports } from "./stored-reports";

export function DailyReportSection({ applied, generation }: { applied: Applied; generation: number }) {
  const [busy, setBusy] = useState(false);
  const [failed, setFailed] = useState(false);
  const [progress, setProgress] = useState<DownloadProgress | null>(null);

  async function generate() {
    setBusy(true);
    setFailed(false);
    setProgress(null);
    try {
      await downloadFile(dailyReportUrl(applied), dailyReportFileName(applied), setProgress);
      toast({ title: DASHBOARD_TEXT.dailyReportDone });
    } catch {
      setFailed(true);
      toast({ variant: "destructive", title: DASHBOARD_TEXT.dailyReportFailed });
    } finally {
      setBusy(false);
      setProgress(null);
    }
  }

  return (
    <Section
      id="daily-report"
      title={DASHBOARD_TEXT.dailyReport}
      applied={applied}
      showStore
      actions={
        <Button onClick={() => void generate()} disabled={busy} aria-busy={busy}>
          {busy ? <LoaderCircle className="animate-spin" aria-hidden /> : <Download aria-hidden />}
          {busy ? DASHBOARD_TEXT.generating : DASHBOARD_TEXT.generateDailyReport}
        </Button>
      }
    >
      {failed ? <SectionError text={DASHBOARD_TEXT.dailyReportError} /> : null}
      <ProgressLine progress={busy ? progress : null} />
      <StoredReports applied={applied} generation={generation} />
    </Section>
  );
}
