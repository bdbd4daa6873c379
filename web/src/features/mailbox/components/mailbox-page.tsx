// /mailbox: the emails the local mail adapter kept, with their links (local mode only).
import { useQuery } from "@tanstack/react-query";
import { useNavigate } from "@tanstack/react-router";
import { ExternalLink, Mail, RefreshCw } from "lucide-react";
import { useId, useState, type FormEvent } from "react";
import { formatTimestamp } from "@shared/format";
import { MAILBOX_TEXT } from "@shared/messages";
import type { MailboxMessage } from "@shared/schemas/mailbox";
import { NotFoundPage } from "@web/components/layout/not-found-page";
import { PageHeader } from "@web/components/layout/page-header";
import { PublicLayout } from "@web/components/layout/public-layout";
import { Button } from "@web/components/ui/button";
import { Card, CardContent } from "@web/components/ui/card";
import { Input } from "@web/components/ui/input";
import { Label } from "@web/components/ui/label";
import { PageSpinner, Spinner } from "@web/components/ui/spinner";
import { errorMessage } from "@web/lib/api";
import { appConfigQueryOptions } from "@web/lib/auth-client";
import { mailboxQueryOptions } from "../api/mailbox";

/** The link is shown as its own anchor below, so the text drops it (and the blank lines it leaves). */
function bodyWithoutLink({ text, link }: MailboxMessage) {
  return (link ? text.replace(link, "") : text).replace(/\n{3,}/g, "\n\n").trim();
}

/**
 * A mail's HTML as the document of a sandboxed frame: no script runs and nothing reaches this page
 * (no allow-same-origin); links open in a new tab, out of the sandbox, as a mail program opens them.
 */
export function mailDocument(html: string) {
  const base = '<base target="_blank">';
  return /<head[^>]*>/i.test(html) ? html.replace(/<head[^>]*>/i, (head) => `${head}${base}`) : `${base}${html}`;
}

function MailHtml({ message }: { message: MailboxMessage & { html: string } }) {
  return (
    <>
      <iframe
        title={MAILBOX_TEXT.htmlVersion(message.subject)}
        sandbox="allow-popups allow-popups-to-escape-sandbox"
        referrerPolicy="no-referrer"
        srcDoc={mailDocument(message.html)}
        className="h-[32rem] w-full rounded-md border bg-white"
      />
      <details className="text-sm">
        <summary className="cursor-pointer text-muted-foreground">{MAILBOX_TEXT.textVersion}</summary>
        <pre className="mt-2 overflow-x-auto text-xs whitespace-pre">{message.text}</pre>
      </details>
    </>
  );
}

export function MessageCard({ message }: { message: MailboxMessage }) {
  return (
    <Card>
      <CardContent className="grid gap-3 p-5">
        <div className="flex flex-col gap-1 sm:flex-row sm:items-start sm:justify-between sm:gap-4">
          <h2 className="font-semibold">{message.subject}</h2>
          <time dateTime={message.created_at} className="shrink-0 text-xs text-muted-foreground tabular-nums">
            {formatTimestamp(message.created_at)} ET
          </time>
        </div>
        <p className="text-sm text-muted-foreground">
          {MAILBOX_TEXT.to}: <span className="break-all text-foreground">{message.to}</span>
        </p>
        {message.html !== null ? (
          <MailHtml message={{ ...message, html: message.html }} />
        ) : (
          <p className="text-sm whitespace-pre-line">{bodyWithoutLink(message)}</p>
        )}
        {message.link ? (
          <a
            href={message.link}
            className="inline-flex w-fit max-w-full items-center gap-2 rounded-md text-sm font-medium break-all text-primary underline-offset-4 hover:underline focus-visible:ring-2 focus-visible:ring-ring focus-visible:outline-none"
          >
            <ExternalLink className="size-4 shrink-0" aria-hidden />
            {message.link}
          </a>
        ) : null}
      </CardContent>
    </Card>
  );
}

function Mailbox({ email }: { email: string }) {
  const navigate = useNavigate();
  const [filter, setFilter] = useState(email);
  const inputId = useId();
  const mailbox = useQuery(mailboxQueryOptions(email));

  function onFilter(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    void navigate({ to: "/mailbox", search: { email: filter.trim() || undefined } });
  }

  return (
    <>
      <PageHeader
        title={MAILBOX_TEXT.title}
        description={MAILBOX_TEXT.intro}
        actions={
          <Button variant="outline" onClick={() => void mailbox.refetch()} disabled={mailbox.isFetching}>
            {mailbox.isFetching ? <Spinner className="size-4" /> : <RefreshCw aria-hidden />}
            {MAILBOX_TEXT.refresh}
          </Button>
        }
      />
      <form onSubmit={onFilter} className="mb-6 flex flex-col gap-2 sm:flex-row sm:items-end">
        <div className="grid flex-1 gap-2">
          <Label htmlFor={inputId}>{MAILBOX_TEXT.filterLabel}</Label>
          <Input id={inputId} type="email" value={filter} onChange={(e) => setFilter(e.target.value)} />
        </div>
        <Button type="submit" variant="secondary">
          {MAILBOX_TEXT.show}
        </Button>
      </form>
      {mailbox.isPending ? (
        <PageSpinner />
      ) : mailbox.isError ? (
        <p role="alert" className="text-sm text-destructive">
          {errorMessage(mailbox.error, MAILBOX_TEXT.loadFailed)}
        </p>
      ) : mailbox.data.messages.length === 0 ? (
        <Card>
          <CardContent className="flex items-center gap-3 p-6 text-sm text-muted-foreground">
            <Mail className="size-5 text-primary" aria-hidden />
            {MAILBOX_TEXT.empty}
          </CardContent>
        </Card>
      ) : (
        <ul className="grid gap-4">
          {mailbox.data.messages.map((message) => (
            <li key={message.id}>
              <MessageCard message={message} />
            </li>
          ))}
        </ul>
      )}
    </>
  );
}

export function MailboxPage({ email }: { email: string }) {
  const config = useQuery(appConfigQueryOptions());
  if (config.isPending) return <PageSpinner />;
  if (!config.data?.localMailbox) return <NotFoundPage />;
  return (
    <PublicLayout>
      <Mailbox email={email} />
    </PublicLayout>
  );
}
