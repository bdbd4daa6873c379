import { render, screen } from "@testing-library/react";
import { describe, expect, it } from "vitest";
import { MAILBOX_TEXT } from "@shared/messages";
import type { MailboxMessage } from "@shared/schemas/mailbox";
import { MessageCard, mailDocument } from "./mailbox-page";

const message = (over: Partial<MailboxMessage> = {}): MailboxMessage => ({
  id: 1,
  to: "staff@store.example",
  subject: "Daily report for Monday, Sep 14, 2026",
  text: "Figures in text",
  link: null,
  html: null,
  headers: null,
  kind: "daily_report",
  created_at: "2026-09-15T05:15:00.000Z",
  ...over,
});

describe("the mailbox's messages", () => {
  it("shows a mail's HTML only inside a sandboxed frame: no scripts, no access to the page, links in a new tab", () => {
    const html = '<html><head><title>t</title></head><body><p id="inside">Hello</p><script>parent.document.title = "owned"</script></body></html>';
    render(<MessageCard message={message({ html })} />);
    const frame = screen.getByTitle(MAILBOX_TEXT.htmlVersion(message().subject)) as HTMLIFrameElement;
    expect(frame.tagName).toBe("IFRAME");
    const sandbox = frame.getAttribute("sandbox")!.split(/\s+/);
    expect(sandbox).not.toContain("allow-scripts");
    expect(sandbox).not.toContain("allow-same-origin");
    expect(frame.getAttribute("srcdoc")).toBe(mailDocument(html));
    expect(mailDocument(html)).toContain('<head><base target="_blank">');
    // Nothing of the mail is part of the page itself; its text version is beside the frame.
    expect(document.getElementById("inside")).toBeNull();
    expect(screen.getByText("Figures in text")).toBeTruthy();
  });

  it("shows a text-only mail as text, without a frame", () => {
    render(<MessageCard message={message({ text: "Confirm your email" })} />);
    expect(screen.getByText("Confirm your email")).toBeTruthy();
    expect(document.querySelector("iframe")).toBeNull();
  });
});
