// /webhook-inbox: the local webhook receiver (outside production only; the server answers 404 there
// and so does this page). It shows the URL to add as an endpoint in Settings → Webhooks, and each
// delivery with its headers, its body and whether its signature verified.
import { useQuery } from "@tanstack/react-query";
import { CheckCircle2, RefreshCw, XCircle } from "lucide-react";
import { formatTimestamp } from "@shared/format";
import { WEBHOOKS_TEXT as T } from "@shared/messages";
import type { WebhookInboxEntry } from "@shared/schemas/webhooks";
import { NotFoundPage } from "@web/components/layout/not-found-page";
import { PageHeader } from "@web/components/layout/page-header";
import { PublicLayout } from "@web/components/layout/public-layout";
import { Button } from "@web/components/ui/button";
import { Card, CardContent } from "@web/components/ui/card";
import { PageSpinner, Spinner } from "@web/components/ui/spinner";
import { ApiError, errorMessage } from "@web/lib/api";
import { webhookInboxQueryOptions } from "../api/webhook-inbox";

function Delivery({ entry }: { entry: WebhookInboxEntry }) {
  return (
    <Card data-testid="inbox-delivery">
      <CardContent className="grid gap-2 p-4 text-sm">
        <div className="flex flex-wrap items-center justify-between gap-2">
          <span className="font-mono font-semibold">{entry.eventType ?? "?"}</span>
          <time dateTime={entry.receivedAt} className="text-xs text-muted-foreground tabular-nums">
            {formatTimestamp(entry.receivedAt)}
          </time>
        </div>
        <p className={entry.verified ? "flex items-center gap-1.5 text-success" : "flex items-center gap-1.5 text-destructive"}>
          {entry.verified ? <CheckCircle2 className="size-4" aria-hidden /> : <XCircle className="size-4" aria-hidden />}
          {entry.verified ? T.verified : `${T.notVerified}: ${entry.verifyError ?? ""}`}
        </p>
        <p className="font-mono text-xs break-all">webhook-id: {entry.webhookId}</p>
        <details>
          <summary className="cursor-pointer text-muted-foreground">Headers</summary>
          <pre className="mt-1 overflow-x-auto text-xs">{Object.entries(entry.headers).map(([k, v]) => `${k}: ${v}`).join("\n")}</pre>
        </details>
        <details>
          <summary className="cursor-pointer text-muted-foreground">Body</summary>
          <pre className="mt-1 max-h-80 overflow-auto text-xs break-all whitespace-pre-wrap">{entry.body}</pre>
        </details>
      </CardContent>
    </Card>
  );
}

export function WebhookInboxPage({ inbox }: { inbox: string }) {
  const query = useQuery(webhookInboxQueryOptions(inbox));
  if (query.isPending) return <PageSpinner />;
  if (query.isError && query.error instanceof ApiError && query.error.status === 404) return <NotFoundPage />;
  const url = query.data ? `${window.location.origin}${query.data.path}` : "";
  return (
    <PublicLayout>
      <PageHeader
        title={T.inboxTitle}
        description={T.inboxText}
        actions={
          <Button variant="outline" onClick={() => void query.refetch()} disabled={query.isFetching}>
            {query.isFetching ? <Spinner className="size-4" /> : <RefreshCw aria-hidden />}
            {T.refresh}
          </Button>
        }
      />
      {query.isError ? (
        <p role="alert" className="text-sm text-destructive">
          {errorMessage(query.error, T.loadFailed)}
        </p>
      ) : (
        <div className="grid gap-4">
          <p className="text-sm">
            {T.urlLabel}:{" "}
            <code data-testid="inbox-url" className="rounded bg-muted px-2 py-1 font-mono text-xs break-all select-all">
              {url}
            </code>
          </p>
          {query.data.deliveries.length === 0 ? (
            <p className="text-sm text-muted-foreground">{T.inboxEmpty}</p>
          ) : (
            <ul className="grid gap-3">
              {query.data.deliveries.map((entry) => (
                <li key={entry.id}>
                  <Delivery entry={entry} />
                </li>
              ))}
            </ul>
          )}
        </div>
      )}
    </PublicLayout>
  );
}
