// A new secret (an API key, a webhook endpoint's signing secret), shown once with Copy and Done: the
// server keeps only its hash or never shows it again, so this is the one moment it can be copied.
import { useState } from "react";
import { Button } from "@web/components/ui/button";

export type SecretOnceText = { secretOnce: string; copy: string; copied: string; done: string };

export function SecretOnce({ secret, text, testId, onDone }: { secret: string; text: SecretOnceText; testId: string; onDone: () => void }) {
  const [copied, setCopied] = useState(false);
  return (
    <div role="status" className="grid gap-2 rounded-md border border-warning/50 bg-warning/10 p-3 text-sm">
      <p className="font-medium">{text.secretOnce}</p>
      <code data-testid={testId} className="rounded bg-muted px-2 py-1 font-mono text-xs break-all select-all">
        {secret}
      </code>
      <div className="flex gap-2">
        <Button type="button" size="sm" variant="outline" onClick={() => void navigator.clipboard?.writeText(secret).then(() => setCopied(true), () => undefined)}>
          {copied ? text.copied : text.copy}
        </Button>
        <Button type="button" size="sm" onClick={onDone}>
          {text.done}
        </Button>
      </div>
    </div>
  );
}
