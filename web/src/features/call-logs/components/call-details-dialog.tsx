// 'View Details' (docs/product/call-logs.md#the-call-logs-page Call Logs): Summary and Transcript tabs, and the recording when there
// is one. The platform's record is asked for only for its own ids; 'call_…' rows show the row itself.
import type { ReactNode } from "react";
import { TRANSCRIPT_PANE_HEIGHT_PX } from "@shared/constants";
import { formatDuration, formatPhone, formatTimestamp } from "@shared/format";
import { CALL_LOG_TEXT } from "@shared/messages";
import type { CallLogView } from "@shared/schemas/call-logs";
import { Dialog, DialogContent, DialogDescription, DialogHeader, DialogTitle } from "@web/components/ui/dialog";
import { Spinner } from "@web/components/ui/spinner";
import { Tabs, TabsContent, TabsList, TabsTrigger } from "@web/components/ui/tabs";
import { CallStatusBadge } from "@web/components/calls/call-status-badge";
import { hasPlatformDetail, useCallDetail } from "../api/get-call-detail";
import { TranscriptMessage, TranscriptView } from "./transcript-view";

/** The transcript of one call: fetched from the voice platform, or none for rows it does not hold. */
export function CallTranscript({ log }: { log: CallLogView }) {
  const platform = hasPlatformDetail(log.call_id);
  const detail = useCallDetail(log.call_id);
  return (
    <div
      role="region"
      aria-label={CALL_LOG_TEXT.transcript}
      // Scrollable by keyboard too.
      // eslint-disable-next-line jsx-a11y/no-noninteractive-tabindex -- a scrolling region takes focus so the keyboard can scroll it
      tabIndex={0}
      className="overflow-y-auto rounded-md border border-border bg-background focus-visible:ring-2 focus-visible:ring-ring focus-visible:outline-none"
      style={{ height: TRANSCRIPT_PANE_HEIGHT_PX }}
    >
      {!platform ? (
        // The call-log row carries no transcript (list pages never read it) and the platform has none.
        <TranscriptView transcript={null} />
      ) : detail.isPending ? (
        <div className="flex h-full items-center justify-center">
          <Spinner className="size-6" />
        </div>
      ) : detail.isError ? (
        <TranscriptMessage tone="error">{CALL_LOG_TEXT.transcriptFailed}</TranscriptMessage>
      ) : (
        <TranscriptView transcript={detail.data.transcript} />
      )}
    </div>
  );
}

function Fact({ label, children }: { label: string; children: ReactNode }) {
  return (
    <div className="grid gap-0.5">
      <dt className="text-xs font-medium text-muted-foreground">{label}</dt>
      <dd className="text-sm">{children}</dd>
    </div>
  );
}

function CallDetails({ log }: { log: CallLogView }) {
  const detail = useCallDetail(log.call_id);
  const summary = detail.data?.summary ?? log.summary;
  const recordingUrl = log.recording_url ?? detail.data?.recordingUrl ?? null;
  const status = detail.data?.status ?? log.status;
  const duration = detail.data?.duration ?? log.duration;
  return (
    <>
      <DialogHeader>
        <DialogTitle>{CALL_LOG_TEXT.detailsTitle}</DialogTitle>
        <DialogDescription className="tabular-nums">
          {formatPhone(log.phone_number)} · {formatTimestamp(log.start_time)}
        </DialogDescription>
      </DialogHeader>
      {recordingUrl ? (
        <figure className="grid gap-1.5">
          <figcaption className="text-xs font-medium text-muted-foreground">{CALL_LOG_TEXT.recording}</figcaption>
          {/* eslint-disable-next-line jsx-a11y/media-has-caption -- a call recording has no caption track; the dialog shows its transcript */}
          <audio controls preload="none" src={recordingUrl} className="h-10 w-full">
            <a href={recordingUrl}>{CALL_LOG_TEXT.recording}</a>
          </audio>
        </figure>
      ) : null}
      <Tabs defaultValue="summary" className="min-w-0">
        <TabsList className="w-full">
          <TabsTrigger value="summary" className="flex-1">
            {CALL_LOG_TEXT.summary}
          </TabsTrigger>
          <TabsTrigger value="transcript" className="flex-1">
            {CALL_LOG_TEXT.transcript}
          </TabsTrigger>
        </TabsList>
        <TabsContent value="summary" className="grid gap-4">
          <p className="text-sm leading-relaxed whitespace-pre-line">{summary?.trim() ? summary : <span className="text-muted-foreground">{CALL_LOG_TEXT.noSummary}</span>}</p>
          <dl className="grid grid-cols-2 gap-x-4 gap-y-3 rounded-md bg-muted/60 p-4 sm:grid-cols-3">
            <Fact label={CALL_LOG_TEXT.status}>
              <CallStatusBadge status={status} where="detail" />
            </Fact>
            <Fact label={CALL_LOG_TEXT.duration}>
              <span className="tabular-nums">{formatDuration(duration)}</span>
            </Fact>
            <Fact label={CALL_LOG_TEXT.direction}>
              <span className="capitalize">{log.direction}</span>
            </Fact>
            {log.ended_reason ? (
              <Fact label={CALL_LOG_TEXT.endedReason}>
                <span className="break-words">{log.ended_reason}</span>
              </Fact>
            ) : null}
          </dl>
        </TabsContent>
        <TabsContent value="transcript">
          <CallTranscript log={log} />
        </TabsContent>
      </Tabs>
    </>
  );
}

export function CallDetailsDialog({ log, onClose }: { log: CallLogView | null; onClose: () => void }) {
  return (
    <Dialog open={log !== null} onOpenChange={(open) => !open && onClose()}>
      <DialogContent className="sm:max-w-2xl">{log ? <CallDetails log={log} /> : null}</DialogContent>
    </Dialog>
  );
}
