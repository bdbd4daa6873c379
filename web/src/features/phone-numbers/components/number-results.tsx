// Search results, PHONE_RESULTS_PER_PAGE at a time, each with a Buy button.
import { ChevronLeft, ChevronRight, MapPin } from "lucide-react";
import { useRef, useState } from "react";
import { PHONE_RESULTS_PER_PAGE } from "@shared/constants";
import { formatPhone } from "@shared/format";
import { PHONE_TEXT } from "@shared/messages";
import type { AvailableNumberView } from "@shared/schemas/phone-numbers";
import { Button } from "@web/components/ui/button";

export function pageCount(total: number, perPage: number = PHONE_RESULTS_PER_PAGE) {
  return Math.max(1, Math.ceil(total / perPage));
}

/** The items of a 1-based page; a page past the end gives the last one. */
export function pageOf<T>(items: readonly T[], page: number, perPage: number = PHONE_RESULTS_PER_PAGE): T[] {
  const last = pageCount(items.length, perPage);
  const current = Math.min(Math.max(1, page), last);
  return items.slice((current - 1) * perPage, current * perPage);
}

export function placeOf(n: { locality: string | null; region: string | null }) {
  return [n.locality, n.region].filter(Boolean).join(", ");
}

type NumberResultsProps = {
  numbers: readonly AvailableNumberView[];
  onBuy: (number: AvailableNumberView) => void;
  buyDisabled?: boolean;
};

export function NumberResults({ numbers, onBuy, buyDisabled = false }: NumberResultsProps) {
  const [page, setPage] = useState(1);
  const top = useRef<HTMLParagraphElement>(null);
  const pages = pageCount(numbers.length);
  const current = Math.min(page, pages);
  const visible = pageOf(numbers, current);

  function goTo(next: number) {
    setPage(next);
    // The pager sits below the list: bring the new page's first rows into view.
    top.current?.scrollIntoView?.({ block: "nearest" });
  }

  return (
    <div className="grid gap-4">
      <p ref={top} className="scroll-mt-20 text-sm text-muted-foreground" aria-live="polite">
        {PHONE_TEXT.resultsFound(numbers.length)}
      </p>
      <ul className="divide-y divide-border rounded-lg border border-border bg-card" aria-label={PHONE_TEXT.availableNumbers}>
        {visible.map((n) => {
          const placeId = `available-${n.phoneNumber.replace(/\D/g, "")}`;
          return (
            <li key={n.phoneNumber} className="flex items-center justify-between gap-3 px-4 py-3">
              <div className="min-w-0">
                <p className="font-medium tabular-nums">{formatPhone(n.phoneNumber)}</p>
                <p id={placeId} className="flex items-center gap-1 truncate text-sm text-muted-foreground">
                  <MapPin className="size-3.5 shrink-0" aria-hidden />
                  <span className="sr-only">{formatPhone(n.phoneNumber)}, </span>
                  {placeOf(n) || n.isoCountry}
                </p>
              </div>
              <Button size="sm" onClick={() => onBuy(n)} disabled={buyDisabled} aria-describedby={placeId}>
                {PHONE_TEXT.buyAction}
              </Button>
            </li>
          );
        })}
      </ul>
      {pages > 1 ? (
        <nav className="flex items-center justify-between gap-2" aria-label={PHONE_TEXT.pageOf(current, pages)}>
          <Button variant="outline" size="sm" onClick={() => goTo(current - 1)} disabled={current <= 1}>
            <ChevronLeft aria-hidden />
            <span className="max-sm:sr-only">{PHONE_TEXT.previousPage}</span>
          </Button>
          <div className="flex items-center gap-1">
            {Array.from({ length: pages }, (_, i) => i + 1).map((p) => (
              <Button
                key={p}
                variant={p === current ? "default" : "ghost"}
                size="sm"
                className="w-9 px-0 tabular-nums"
                aria-label={PHONE_TEXT.goToPage(p)}
                aria-current={p === current ? "page" : undefined}
                onClick={() => goTo(p)}
              >
                {p}
              </Button>
            ))}
          </div>
          <Button variant="outline" size="sm" onClick={() => goTo(current + 1)} disabled={current >= pages}>
            <span className="max-sm:sr-only">{PHONE_TEXT.nextPage}</span>
            <ChevronRight aria-hidden />
          </Button>
        </nav>
      ) : null}
    </div>
  );
}
