// The frame every dashboard section shares: a heading with the dates and store it shows, a fixed
// height skeleton while loading (no layout jump), the section's red error text, or its figures.
import { useState, type ReactNode } from "react";
import { formatCount } from "@shared/format";
import { DASHBOARD_TEXT } from "@shared/messages";
import { CardContent, CardHeader, CardTitle } from "@web/components/ui/card";
import { LoadingStatus, Skeleton } from "@web/components/ui/skeleton";
import { describeProgress, type DownloadProgress } from "@web/lib/download";
import { cn } from "@web/lib/utils";

export type Range = { startDate: string; endDate: string };
export type Applied = Range & { store?: string };

export function rangeLabel({ startDate, endDate }: { startDate: string; endDate: string }) {
  return startDate === endDate ? startDate : `${startDate} to ${endDate}`;
}

export function Section({ id, title, applied, showStore, actions, children }: {
  id: string;
  title: string;
  applied: Applied;
  showStore?: boolean;
  actions?: ReactNode;
  children: ReactNode;
}) {
  const headingId = `${id}-heading`;
  return (
    // Sections off screen skip style, layout and paint until they come near the viewport (on a phone
    // that is most of the dashboard; decision 030); a section's last size is kept once it has been shown.
    <section
      aria-labelledby={headingId}
      className="min-w-0 rounded-xl border border-border bg-card text-card-foreground shadow-sm [contain-intrinsic-size:auto_24rem] [content-visibility:auto]"
    >
        <CardHeader className="flex flex-col gap-2 sm:flex-row sm:items-start sm:justify-between">
          <div className="min-w-0">
            <CardTitle id={headingId}>{title}</CardTitle>
            <p className="text-sm text-muted-foreground" data-testid={`${id}-range`}>
              {rangeLabel(applied)}
              {showStore ? ` · ${applied.store || DASHBOARD_TEXT.allStores}` : ""}
            </p>
          </div>
          {actions ? <div className="flex flex-wrap gap-2">{actions}</div> : null}
        </CardHeader>
        <CardContent className="grid gap-4">{children}</CardContent>
    </section>
  );
}

export function SectionSkeleton({ label, height = "h-[156px] sm:h-[72px]" }: { label: string; height?: string }) {
  return (
    <div aria-busy="true" className={cn("grid grid-cols-2 gap-3 sm:grid-cols-4", height)}>
      <LoadingStatus label={label} />
      {Array.from({ length: 4 }, (_, i) => (
        <Skeleton key={i} className="h-full" />
      ))}
    </div>
  );
}

/**
 * A section's figures once every query behind them has answered: a skeleton of the figures' height
 * while any is loading (no layout jump), the section's error text if any failed.
 */
export function SectionBody({ queries, errorText, skeletonHeight, children }: {
  queries: readonly { isPending: boolean; isError: boolean }[];
  errorText: string;
  skeletonHeight?: string;
  children: ReactNode;
}) {
  if (queries.some((q) => q.isPending)) return <SectionSkeleton label={DASHBOARD_TEXT.loading} height={skeletonHeight} />;
  if (queries.some((q) => q.isError)) return <SectionError text={errorText} />;
  return <>{children}</>;
}

export function SectionError({ text }: { text: string }) {
  return (
    <p role="alert" className="text-sm font-medium text-destructive">
      {text}
    </p>
  );
}

/** What a running download has received so far, announced politely; nothing when idle. */
export function ProgressLine({ progress }: { progress: DownloadProgress | null }) {
  return (
    <p role="status" aria-live="polite" className="min-h-5 text-sm text-muted-foreground tabular-nums">
      {progress ? `${describeProgress(progress)} received` : ""}
    </p>
  );
}

export function Figure({ label, value }: { label: string; value: number | null | undefined }) {
  return (
    <div className="min-w-0 rounded-md border border-border p-3">
      <dt className="text-xs break-words text-muted-foreground">{label}</dt>
      <dd className="text-2xl font-semibold tabular-nums">{formatCount(value)}</dd>
    </div>
  );
}

export function FigureGrid({ children, label }: { children: ReactNode; label: string }) {
  return (
    <dl aria-label={label} className="grid grid-cols-2 gap-3 sm:grid-cols-4">
      {children}
    </dl>
  );
}

/**
 * A section's own select over what the top controls also choose (Appointments' store, Aircall's
 * line): it shows `followed`, what Refresh All Sections applied, until the section's own choice,
 * which holds until the next refresh. `chosen` is true while the section's own choice ("" for all)
 * is what counts, so what the select shows is always what the section counts.
 */
export function useSectionChoice(generation: number, followed: string) {
  const [own, setOwn] = useState<{ value: string; generation: number } | null>(null);
  const chosen = own !== null && own.generation === generation;
  return { value: chosen ? own.value : followed, chosen, choose: (value: string) => setOwn({ value, generation }) };
}

/** The options of a select with its value among them (a value the options have not listed yet). */
export const withValue = (options: readonly string[], value: string) => (value && !options.includes(value) ? [value, ...options] : options);

/** A labelled native select: keyboard usable everywhere and easy to read on a phone. */
export function FilterSelect({ id, label, value, onChange, options, allLabel }: {
  id: string;
  label: string;
  value: string;
  onChange: (value: string) => void;
  options: readonly (string | { value: string; label: string })[];
  allLabel?: string;
}) {
  return (
    <div className="grid min-w-0 gap-1.5">
      <label htmlFor={id} className="text-sm font-medium">
        {label}
      </label>
      <select
        id={id}
        value={value}
        onChange={(e) => onChange(e.target.value)}
        className="h-10 w-full min-w-0 rounded-md border border-input bg-background px-3 text-base focus-visible:border-ring focus-visible:ring-2 focus-visible:ring-ring/40 focus-visible:outline-none md:text-sm"
      >
        {allLabel !== undefined ? <option value="">{allLabel}</option> : null}
        {options.map((o) => {
          const opt = typeof o === "string" ? { value: o, label: o } : o;
          return (
            <option key={opt.value} value={opt.value}>
              {opt.label}
            </option>
          );
        })}
      </select>
    </div>
  );
}
