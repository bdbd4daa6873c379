// Call Logs (docs/product/dashboard-and-counts.md#sections-and-who-sees-them): the call counts for the chosen agent and call type over the applied dates,
// the CSV export of those calls, today's latest calls as they happen, and the call volume by day.
import { useQueries } from "@tanstack/react-query";
import { Download, LoaderCircle } from "lucide-react";
import { useState } from "react";
import { CALL_TYPES, DEFAULT_CALL_TYPE } from "@shared/constants";
import { DASHBOARD_TEXT } from "@shared/messages";
import { callReportFileName } from "@shared/report-files";
import { useAgents } from "@web/api/agents";
import { downloadFile, type DownloadProgress } from "@web/lib/download";
import { Button } from "@web/components/ui/button";
import { callLogCountQueries } from "../api/dashboard";
import { exportReportUrl } from "../api/dashboard-urls";
import { CallVolume } from "./insights";
import { LiveCalls } from "./live-calls";
import { Figure, FigureGrid, FilterSelect, ProgressLine, Section, SectionBody, SectionError, type Range } from "./section";

export function CallLogsSection({ userId, range, generation }: { userId: string; range: Range; generation: number }) {
  const agents = useAgents(userId);
  const [agent, setAgent] = useState("");
  const [callType, setCallType] = useState<string>(DEFAULT_CALL_TYPE);
  const [exporting, setExporting] = useState(false);
  const [exportFailed, setExportFailed] = useState(false);
  const [exportProgress, setExportProgress] = useState<DownloadProgress | null>(null);
  const filters = { ...range, agent: agent || undefined, callType };
  const counts = useQueries({ queries: callLogCountQueries(filters, generation) });
  const agentOptions = (agents.data?.agents ?? [])
    .filter((a) => a.vapi_assistant_id && a.store && a.type && a.name)
    .map((a) => ({ value: a.vapi_assistant_id!, label: `${a.name} (${a.store} · ${a.type})` }));

  async function exportCsv() {
    setExporting(true);
    setExportFailed(false);
    setExportProgress(null);
    try {
      await downloadFile(exportReportUrl(filters), callReportFileName(range), setExportProgress);
    } catch {
      setExportFailed(true);
    } finally {
      setExporting(false);
      setExportProgress(null);
    }
  }

  const [total, connected, voicemail, forwarded] = counts;
  return (
    <Section
      id="call-logs"
      title={DASHBOARD_TEXT.callLogs}
      applied={range}
      actions={
        <Button variant="outline" onClick={() => void exportCsv()} disabled={exporting} aria-busy={exporting}>
          {exporting ? <LoaderCircle className="animate-spin" aria-hidden /> : <Download aria-hidden />}
          {exporting ? DASHBOARD_TEXT.exporting : DASHBOARD_TEXT.exportCsv}
        </Button>
      }
    >
      <div className="grid grid-cols-1 gap-3 sm:grid-cols-2">
        <FilterSelect id="call-logs-agent" label={DASHBOARD_TEXT.agent} value={agent} onChange={setAgent} options={agentOptions} allLabel={DASHBOARD_TEXT.allAgents} />
        <FilterSelect id="call-logs-type" label={DASHBOARD_TEXT.callType} value={callType} onChange={setCallType} options={CALL_TYPES} />
      </div>
      <p className="text-xs text-muted-foreground">{DASHBOARD_TEXT.callLogsScope}</p>
      {exportFailed ? <SectionError text={DASHBOARD_TEXT.exportError} /> : null}
      <ProgressLine progress={exporting ? exportProgress : null} />
      <SectionBody queries={counts} errorText={DASHBOARD_TEXT.countsError}>
        <FigureGrid label={DASHBOARD_TEXT.callLogs}>
          <Figure label={DASHBOARD_TEXT.totalCalls} value={total.data?.total} />
          <Figure label={DASHBOARD_TEXT.connected} value={connected.data?.count} />
          <Figure label={DASHBOARD_TEXT.voicemail} value={voicemail.data?.count} />
          <Figure label={DASHBOARD_TEXT.forwarded} value={forwarded.data?.count} />
        </FigureGrid>
      </SectionBody>
      <LiveCalls />
      <CallVolume filters={filters} generation={generation} />
    </Section>
  );
}
