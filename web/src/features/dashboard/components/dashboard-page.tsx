// /dashboard (docs/product/dashboard-and-counts.md#sections-and-who-sees-them, docs/product/README.md#states-and-flows): the top controls pick the dates and store; only 'Refresh All Sections'
// applies them to the sections (and reloads every figure). Call Logs starts on today, the report
// sections on yesterday (New York, docs/product/constants.md#business-constants). Sections beyond Call Logs follow the user's flags.
// The first state's requests are started before the page renders (../api/first-load, decision 062):
// each section's query finds its answer cached or in flight.
import { RefreshCw } from "lucide-react";
import { useState } from "react";
import { STORES } from "@shared/constants";
import { daysInRange, lastRangeEnd, MAX_RANGE_DAYS } from "@shared/ny-time";
import { DASHBOARD_TEXT } from "@shared/messages";
import type { CurrentUserView } from "@shared/schemas/auth";
import { PageHeader } from "@web/components/layout/page-header";
import { PlanRequiredNotice } from "@web/components/plans/plan-required-notice";
import { Button } from "@web/components/ui/button";
import { Input } from "@web/components/ui/input";
import { useStaged } from "@web/lib/staged";
import { initialApplied } from "../api/first-load-urls";
import { AircallSection } from "./aircall-section";
import { AppointmentsSection } from "./appointments-section";
import { CallLogsSection } from "./call-logs-section";
import { DailyReportSection } from "./daily-report-section";
import { StoreFunnelSection } from "./insights";
import { LeadsSection } from "./leads-section";
import { FilterSelect, type Applied } from "./section";

const DAY = /^\d{4}-\d{2}-\d{2}$/;

export function DashboardPage({ user, now }: { user: CurrentUserView; now?: Date }) {
  const [applied, setApplied] = useState(() => initialApplied(now ?? new Date()));
  const [inputs, setInputs] = useState(() => ({ ...applied.reports, store: "" }));
  const reports: Applied = { ...applied.reports, store: applied.store || undefined };
  // The sections below Call Logs render (and ask for their figures) right after the first screen.
  const rest = useStaged();

  // The counts and reports take at most MAX_RANGE_DAYS: a longer range is stopped here, naming the
  // limit, before any section asks for it (the server would refuse it with a 400).
  const datesSet = DAY.test(inputs.startDate) && DAY.test(inputs.endDate);
  const lastEnd = DAY.test(inputs.startDate) ? lastRangeEnd(inputs.startDate) : undefined;
  const tooLong = datesSet && daysInRange(inputs.startDate, inputs.endDate) > MAX_RANGE_DAYS;

  function refreshAll() {
    if (tooLong) return;
    const range = { startDate: inputs.startDate, endDate: inputs.endDate };
    setApplied((a) => ({ callLogs: range, reports: range, store: inputs.store, generation: a.generation + 1 }));
  }

  return (
    <div className="mx-auto grid w-full max-w-6xl min-w-0 gap-6">
      <PageHeader title={DASHBOARD_TEXT.pageTitle} />
      <PlanRequiredNotice email={user.email} />
      <form
        aria-label={DASHBOARD_TEXT.refreshAll}
        className="grid grid-cols-1 items-end gap-3 sm:grid-cols-2 lg:grid-cols-4"
        onSubmit={(e) => {
          e.preventDefault();
          refreshAll();
        }}
      >
        <div className="grid min-w-0 gap-1.5">
          <label htmlFor="dashboard-start" className="text-sm font-medium">
            {DASHBOARD_TEXT.startDate}
          </label>
          <Input id="dashboard-start" type="date" value={inputs.startDate} max={inputs.endDate} onChange={(e) => setInputs((s) => ({ ...s, startDate: e.target.value }))} required />
        </div>
        <div className="grid min-w-0 gap-1.5">
          <label htmlFor="dashboard-end" className="text-sm font-medium">
            {DASHBOARD_TEXT.endDate}
          </label>
          <Input
            id="dashboard-end"
            type="date"
            value={inputs.endDate}
            min={inputs.startDate}
            max={lastEnd}
            aria-invalid={tooLong || undefined}
            aria-describedby={tooLong ? "dashboard-range-error" : undefined}
            onChange={(e) => setInputs((s) => ({ ...s, endDate: e.target.value }))}
            required
          />
        </div>
        <FilterSelect id="dashboard-store" label={DASHBOARD_TEXT.store} value={inputs.store} onChange={(store) => setInputs((s) => ({ ...s, store }))} options={STORES} allLabel={DASHBOARD_TEXT.allStores} />
        <Button type="submit">
          <RefreshCw aria-hidden />
          {DASHBOARD_TEXT.refreshAll}
        </Button>
        {tooLong && lastEnd ? (
          <p id="dashboard-range-error" role="alert" className="text-sm font-medium text-destructive sm:col-span-2 lg:col-span-4">
            {DASHBOARD_TEXT.rangeTooLong(MAX_RANGE_DAYS, lastEnd)}
          </p>
        ) : null}
      </form>

      <CallLogsSection userId={user.id} range={applied.callLogs} generation={applied.generation} />
      {rest && user.shopwindows_info ? (
        <>
          <DailyReportSection applied={reports} generation={applied.generation} />
          <AppointmentsSection applied={reports} generation={applied.generation} />
          <LeadsSection applied={reports} generation={applied.generation} />
        </>
      ) : null}
      {rest && user.call_app ? <AircallSection applied={reports} generation={applied.generation} /> : null}
      {/* Beyond the spec, after its sections: calls, appointments and cost per store. */}
      {rest && user.shopwindows_info ? <StoreFunnelSection range={applied.reports} generation={applied.generation} /> : null}
    </div>
  );
}
