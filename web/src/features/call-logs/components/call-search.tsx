// Transcript and summary search on /call-logs (decision 059): the search box (its text debounced into
// the address, `?q=`), and the matching calls newest first with the matching words marked in a snippet,
// in keyset pages like the list. Snippets arrive as plain text with character ranges: React renders
// the text as text and the ranges as <mark>, so nothing a caller said can become markup.
import { Eye, LoaderCircle, Search, X } from "lucide-react";
import { useEffect, useEffectEvent, useId, useRef, useState, type ReactNode } from "react";
import { formatPhone, formatTimestamp } from "@shared/format";
import { CALL_LOG_TEXT, CALL_SEARCH_TEXT } from "@shared/messages";
import type { CallLogView, SearchSnippet } from "@shared/schemas/call-logs";
import { Button } from "@web/components/ui/button";
import { CardContent } from "@web/components/ui/card";
import { CallStatusBadge } from "@web/components/calls/call-status-badge";
import { useCallSearch } from "@web/api/call-search";
import { errorMessage } from "@web/lib/api";

/** Milliseconds of quiet typing before the text becomes the search. */
export const SEARCH_DEBOUNCE_MS = 300;

/** The search a box's text asks for: its trimmed text from 2 characters on (the API's minimum), else none. */
export const searchOf = (text: string): string | undefined => {
  const t = text.trim();
  return t.length >= 2 ? t.slice(0, 200) : undefined;
};

/** A snippet's text with its ranges in <mark>; ranges out of order or out of bounds are left unmarked. */
export function HighlightedSnippet({ snippet }: { snippet: SearchSnippet }) {
  const { text, highlights } = snippet;
  const parts: ReactNode[] = [];
  let at = 0;
  for (const [start, end] of highlights) {
    if (!Number.isInteger(start) || !Number.isInteger(end) || start < at || end <= start || end > text.length) continue;
    if (start > at) parts.push(text.slice(at, start));
    parts.push(
      <mark key={start} className="rounded-sm bg-yellow-200 px-0.5 text-foreground dark:bg-yellow-500/40">
        {text.slice(start, end)}
      </mark>,
    );
    at = end;
  }
  if (at < text.length) parts.push(text.slice(at));
  return <>{parts}</>;
}

/**
 * The search box. `value` is the search in effect (the address's `q`); typing changes it after
 * SEARCH_DEBOUNCE_MS (Enter at once), and the clear button ends it at once.
 */
export function CallSearchBox({ value, onChange }: { value: string | undefined; onChange: (q: string | undefined) => void }) {
  const id = useId();
  const [text, setText] = useState(value ?? "");
  const input = useRef<HTMLInputElement>(null);
  const [shown, setShown] = useState(value);
  // The address moved on its own (back, forward, a link): the box shows its search.
  if (shown !== value) {
    setShown(value);
    if (searchOf(text) !== value) setText(value ?? "");
  }
  const debounced = useEffectEvent((next: string | undefined) => onChange(next));

  useEffect(() => {
    const next = searchOf(text);
    if (next === value) return;
    const timer = setTimeout(() => debounced(next), SEARCH_DEBOUNCE_MS);
    return () => clearTimeout(timer);
  }, [text, value]);

  const tooShort = text.trim().length === 1;
  return (
    <form
      role="search"
      className="mb-4 grid gap-1.5"
      onSubmit={(e) => {
        e.preventDefault();
        onChange(searchOf(text));
      }}
    >
      <label htmlFor={`${id}-q`} className="text-sm font-medium">
        {CALL_SEARCH_TEXT.label}
      </label>
      <div className="relative">
        <Search className="pointer-events-none absolute left-3 top-1/2 size-4 -translate-y-1/2 text-muted-foreground" aria-hidden />
        <input
          ref={input}
          id={`${id}-q`}
          type="search"
          value={text}
          maxLength={200}
          autoComplete="off"
          placeholder={CALL_SEARCH_TEXT.placeholder}
          aria-describedby={`${id}-hint`}
          onChange={(e) => setText(e.target.value)}
          className="h-10 w-full rounded-md border border-input bg-background pl-9 pr-10 text-sm shadow-xs outline-none placeholder:text-muted-foreground focus-visible:border-ring focus-visible:ring-[3px] focus-visible:ring-ring/50 [&::-webkit-search-cancel-button]:hidden"
        />
        {text ? (
          <Button
            type="button"
            variant="ghost"
            size="icon"
            className="absolute right-1 top-1/2 size-8 -translate-y-1/2"
            aria-label={CALL_SEARCH_TEXT.clear}
            onClick={() => {
              setText("");
              onChange(undefined);
              input.current?.focus();
            }}
          >
            <X aria-hidden />
          </Button>
        ) : null}
      </div>
      <p id={`${id}-hint`} className="text-xs text-muted-foreground">
        {tooShort ? CALL_SEARCH_TEXT.tooShort : CALL_SEARCH_TEXT.hint}
      </p>
    </form>
  );
}

/** The calls matching `q`, newest first, with their snippets, announced to screen readers as they arrive. */
export function CallSearchResults({ q, onView }: { q: string; onView: (log: CallLogView) => void }) {
  const search = useCallSearch(q);
  const results = search.data?.pages.flatMap((p) => p.results) ?? [];
  const status = search.isPending
    ? CALL_SEARCH_TEXT.searching
    : search.isError && results.length === 0
      ? ""
      : results.length === 0
        ? CALL_SEARCH_TEXT.none(q)
        : CALL_SEARCH_TEXT.found(results.length, Boolean(search.hasNextPage));
  return (
    <>
      <p role="status" aria-live="polite" className="mb-2 text-sm text-muted-foreground">
        {status}
      </p>
      {search.isError && results.length === 0 ? (
        <CardContent className="flex flex-col items-start gap-3 rounded-xl border p-6">
          <p role="alert" className="text-sm font-medium text-destructive">
            {errorMessage(search.error, CALL_SEARCH_TEXT.failed)}
          </p>
          <Button variant="outline" size="sm" onClick={() => void search.refetch()}>
            {CALL_LOG_TEXT.retry}
          </Button>
        </CardContent>
      ) : results.length > 0 ? (
        <ul aria-label={CALL_SEARCH_TEXT.label} className="divide-y rounded-xl border bg-card">
          {results.map(({ log, snippet }) => (
            <li key={log.id} className="grid gap-2 p-4 sm:grid-cols-[1fr_auto] sm:items-start">
              <div className="grid gap-1.5">
                <div className="flex flex-wrap items-center gap-x-3 gap-y-1 text-sm tabular-nums">
                  <time dateTime={log.start_time} className="font-medium">
                    {formatTimestamp(log.start_time)}
                  </time>
                  <span>{formatPhone(log.phone_number)}</span>
                  <CallStatusBadge status={log.status} />
                </div>
                <p className="text-sm text-muted-foreground" data-testid="search-snippet">
                  <HighlightedSnippet snippet={snippet} />
                </p>
              </div>
              <Button variant="outline" size="sm" className="max-sm:w-full" onClick={() => onView(log)}>
                <Eye aria-hidden />
                {CALL_LOG_TEXT.viewDetails}
              </Button>
            </li>
          ))}
        </ul>
      ) : null}
      {search.hasNextPage ? (
        <div className="mt-4 flex justify-center">
          <Button variant="outline" onClick={() => void search.fetchNextPage()} disabled={search.isFetchingNextPage}>
            {search.isFetchingNextPage ? <LoaderCircle className="animate-spin" aria-hidden /> : null}
            {CALL_LOG_TEXT.loadMore}
          </Button>
        </div>
      ) : null}
    </>
  );
}
