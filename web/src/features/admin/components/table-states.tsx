// What the admin tables show under their rows: a skeleton while the first page loads, the error, or
// the empty text; and 'Load more' while the server has further pages.
import { LoaderCircle } from "lucide-react";
import { ADMIN_TEXT } from "@shared/messages";
import { Button } from "@web/components/ui/button";
import { LoadingStatus, Skeleton } from "@web/components/ui/skeleton";
import { errorMessage } from "@web/lib/api";

type QueryState = { isPending: boolean; isError: boolean; error: unknown };

export function TableStates({
  query,
  empty,
  loadingLabel,
  failedText,
  emptyText,
  skeletonRows = 2,
}: {
  query: QueryState;
  empty: boolean;
  loadingLabel: string;
  failedText: string;
  emptyText: string;
  skeletonRows?: number;
}) {
  if (query.isPending) {
    return (
      <div className="grid gap-3 p-4" aria-busy="true">
        <LoadingStatus label={loadingLabel} />
        {Array.from({ length: skeletonRows }, (_, i) => (
          <Skeleton key={i} className="h-6 w-full" />
        ))}
      </div>
    );
  }
  if (query.isError) {
    return (
      <p className="p-4 text-sm text-destructive" role="alert">
        {errorMessage(query.error, failedText)}
      </p>
    );
  }
  return empty ? <p className="p-4 text-sm text-muted-foreground">{emptyText}</p> : null;
}

export function LoadMore({ query }: { query: { hasNextPage: boolean; isFetchingNextPage: boolean; fetchNextPage: () => unknown } }) {
  if (!query.hasNextPage) return null;
  return (
    <div className="flex justify-center p-4">
      <Button variant="outline" onClick={() => query.fetchNextPage()} disabled={query.isFetchingNextPage}>
        {query.isFetchingNextPage ? <LoaderCircle className="animate-spin" aria-hidden /> : null}
        {ADMIN_TEXT.loadMore}
      </Button>
    </div>
  );
}
