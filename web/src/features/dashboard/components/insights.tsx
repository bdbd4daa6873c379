// Beyond spec 1 (docs/spec-deviations.md): under Call Logs, the daily call volume as a
// lazily loaded chart with its table (always in the page for screen readers, shown on request) and
// the call cost; for store staff, the per-store funnel from AI calls to sold appointments with cost.
import { useQuery } from "@tanstack/react-query";
import { lazy, Suspense, useId, useState } from "react";
import { formatCount, formatMoney, formatRate } from "@shared/format";
import { INSIGHTS_TEXT } from "@shared/messages";
import { rate, type CallVolumeResponse } from "@shared/schemas/insights";
import { Button } from "@web/components/ui/button";
import { Skeleton } from "@web/components/ui/skeleton";
import { Table, TableBody, TableCell, TableHead, TableHeader, TableRow } from "@web/components/ui/table";
import { useNearViewport } from "@web/lib/near-viewport";
import { cn } from "@web/lib/utils";
import { callVolumeQueryOptions, storeFunnelQueryOptions } from "../api/dashboard";
import type { CallLogFilters } from "../api/dashboard-urls";
import { FigureGrid, Section, SectionBody } from "./section";

const CallVolumeChart = lazy(() => import("./call-volume-chart"));

/** Money figures beside the counts: the same card look as Figure, for dollars. */
function MoneyFigure({ label, value }: { label: string; value: number | null | undefined }) {
  return (
    <div className="min-w-0 rounded-lg border border-border p-3">
      <dt className="text-sm break-words text-muted-foreground">{label}</dt>
      <dd className="text-2xl font-semibold tabular-nums">{formatMoney(value, value != null && value < 1 ? 4 : 2)}</dd>
    </div>
  );
}

/**
 * The chart loads and draws once it comes near the screen: below the counts on a phone, its chunk
 * and its drawing (~0.25 s of a phone's main thread) wait until then (decision 030).
 */
function LazyChart({ days }: { days: CallVolumeResponse["days"] }) {
  const [ref, near] = useNearViewport<HTMLDivElement>();
  const placeholder = <Skeleton className="h-[280px] w-full min-w-0" />;
  return (
    <div ref={ref} className="min-w-0">
      {near ? <Suspense fallback={placeholder}>{<CallVolumeChart days={days} />}</Suspense> : placeholder}
    </div>
  );
}

export function CallVolume({ filters, generation }: { filters: CallLogFilters; generation: number }) {
  const volume = useQuery(callVolumeQueryOptions(filters, generation));
  const [tableShown, setTableShown] = useState(false);
  const headingId = useId();
  const tableId = useId();
  const days = volume.data?.days ?? [];
  return (
    <div className="grid min-w-0 gap-3">
      <h3 id={headingId} className="text-sm font-medium">
        {INSIGHTS_TEXT.callVolume}
      </h3>
      <SectionBody queries={[volume]} errorText={INSIGHTS_TEXT.volumeError} skeletonHeight="h-[280px]">
        <FigureGrid label={INSIGHTS_TEXT.cost}>
          <MoneyFigure label={INSIGHTS_TEXT.cost} value={volume.data?.totals.cost} />
          <MoneyFigure label={INSIGHTS_TEXT.costPerCall} value={volume.data?.totals.costPerCall} />
        </FigureGrid>
        <LazyChart days={days} />
        <div>
          <Button variant="outline" size="sm" aria-expanded={tableShown} aria-controls={tableId} onClick={() => setTableShown((v) => !v)}>
            {tableShown ? INSIGHTS_TEXT.hideTable : INSIGHTS_TEXT.showTable}
          </Button>
        </div>
        {/* Always in the page: screen readers read the table; sighted users open it on request. */}
        {/* eslint-disable-next-line jsx-a11y/no-noninteractive-tabindex -- the open table scrolls, so it takes focus for the keyboard */}
        <div id={tableId} tabIndex={tableShown ? 0 : -1} className={cn("max-h-96 min-w-0 overflow-auto", !tableShown && "sr-only")}>
          <VolumeTable days={days} labelledBy={headingId} />
        </div>
      </SectionBody>
    </div>
  );
}

function VolumeTable({ days, labelledBy }: { days: CallVolumeResponse["days"]; labelledBy: string }) {
  return (
    <Table aria-labelledby={labelledBy}>
      <TableHeader>
        <TableRow>
          <TableHead scope="col">{INSIGHTS_TEXT.date}</TableHead>
          <TableHead scope="col" className="text-right">{INSIGHTS_TEXT.inbound}</TableHead>
          <TableHead scope="col" className="text-right">{INSIGHTS_TEXT.outbound}</TableHead>
          <TableHead scope="col" className="text-right">{INSIGHTS_TEXT.connected}</TableHead>
          <TableHead scope="col" className="text-right">{INSIGHTS_TEXT.voicemail}</TableHead>
          <TableHead scope="col" className="text-right">{INSIGHTS_TEXT.forwarded}</TableHead>
          <TableHead scope="col" className="text-right">{INSIGHTS_TEXT.cost}</TableHead>
        </TableRow>
      </TableHeader>
      <TableBody>
        {days.map((d) => (
          <TableRow key={d.date}>
            <TableHead scope="row" className="font-normal">{d.date}</TableHead>
            <TableCell className="text-right tabular-nums">{formatCount(d.inbound.total)}</TableCell>
            <TableCell className="text-right tabular-nums">{formatCount(d.outbound.total)}</TableCell>
            <TableCell className="text-right tabular-nums">{formatCount(d.inbound.connected + d.outbound.connected)}</TableCell>
            <TableCell className="text-right tabular-nums">{formatCount(d.inbound.voicemail + d.outbound.voicemail)}</TableCell>
            <TableCell className="text-right tabular-nums">{formatCount(d.inbound.forwarded + d.outbound.forwarded)}</TableCell>
            <TableCell className="text-right tabular-nums">{formatMoney(d.inbound.cost + d.outbound.cost)}</TableCell>
          </TableRow>
        ))}
      </TableBody>
    </Table>
  );
}

/** The funnel has ten columns: headers may wrap and cells sit closer, so it fits a desktop card unscrolled. */
const FUNNEL_HEAD = "px-2 text-right whitespace-normal";
const FUNNEL_CELL = "px-2 text-right tabular-nums";

export function StoreFunnelSection({ range, generation }: { range: { startDate: string; endDate: string }; generation: number }) {
  const funnel = useQuery(storeFunnelQueryOptions(range, generation));
  const captionId = useId();
  const stores = funnel.data?.stores ?? [];
  return (
    <Section id="store-funnel" title={INSIGHTS_TEXT.storeFunnel} applied={range}>
      <p id={captionId} className="text-sm text-muted-foreground">
        {INSIGHTS_TEXT.funnelIntro}
      </p>
      <SectionBody queries={[funnel]} errorText={INSIGHTS_TEXT.funnelError} skeletonHeight="h-96">
        {/* min-w-0: a grid item would otherwise grow to the table's width and widen the page on a phone. */}
        <div className="min-w-0">
          <Table aria-labelledby={captionId}>
            <TableHeader>
              <TableRow>
                <TableHead scope="col" className="px-2">{INSIGHTS_TEXT.store}</TableHead>
                <TableHead scope="col" className={FUNNEL_HEAD}>{INSIGHTS_TEXT.aiCalls}</TableHead>
                <TableHead scope="col" className={FUNNEL_HEAD}>{INSIGHTS_TEXT.inboundBooked}</TableHead>
                <TableHead scope="col" className={FUNNEL_HEAD}>{INSIGHTS_TEXT.outboundBooked}</TableHead>
                <TableHead scope="col" className={FUNNEL_HEAD}>{INSIGHTS_TEXT.visited}</TableHead>
                <TableHead scope="col" className={FUNNEL_HEAD}>{INSIGHTS_TEXT.sold}</TableHead>
                <TableHead scope="col" className={FUNNEL_HEAD}>{INSIGHTS_TEXT.bookedPerCall}</TableHead>
                <TableHead scope="col" className={FUNNEL_HEAD}>{INSIGHTS_TEXT.soldPerBooked}</TableHead>
                <TableHead scope="col" className={FUNNEL_HEAD}>{INSIGHTS_TEXT.cost}</TableHead>
                <TableHead scope="col" className={FUNNEL_HEAD}>{INSIGHTS_TEXT.costPerCall}</TableHead>
              </TableRow>
            </TableHeader>
            <TableBody>
              {stores.map((s) => {
                const booked = s.inboundBooked + s.outboundBooked;
                return (
                  <TableRow key={s.store}>
                    <TableHead scope="row" className="px-2">{s.store}</TableHead>
                    <TableCell className={FUNNEL_CELL}>{formatCount(s.aiCalls)}</TableCell>
                    <TableCell className={FUNNEL_CELL}>{formatCount(s.inboundBooked)}</TableCell>
                    <TableCell className={FUNNEL_CELL}>{formatCount(s.outboundBooked)}</TableCell>
                    <TableCell className={FUNNEL_CELL}>{formatCount(s.visited)}</TableCell>
                    <TableCell className={FUNNEL_CELL}>{formatCount(s.sold)}</TableCell>
                    <TableCell className={FUNNEL_CELL}>{formatRate(rate(booked, s.aiCalls))}</TableCell>
                    <TableCell className={FUNNEL_CELL}>{formatRate(rate(s.sold, booked))}</TableCell>
                    <TableCell className={FUNNEL_CELL}>{formatMoney(s.cost)}</TableCell>
                    <TableCell className={FUNNEL_CELL}>{formatMoney(s.costPerCall, 4)}</TableCell>
                  </TableRow>
                );
              })}
            </TableBody>
          </Table>
        </div>
        {funnel.data && funnel.data.unassigned.aiCalls > 0 ? (
          <p className="text-sm text-muted-foreground">
            {INSIGHTS_TEXT.unassigned}: {formatCount(funnel.data.unassigned.aiCalls)} · {formatMoney(funnel.data.unassigned.cost)}
          </p>
        ) : null}
      </SectionBody>
    </Section>
  );
}

