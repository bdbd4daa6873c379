// A call's transcript as turns (docs/product/call-logs.md#call-details-and-transcripts "Call detail"): text with 'AI:' / 'Human:' prefixes,
// or an array of { role, content | text } items. Anything else is reported, never guessed at.
import { CALL_LOG_TEXT } from "@shared/messages";
import { cn } from "@web/lib/utils";

export type Speaker = "ai" | "human" | "other";
/** A turn as shown; the wire shape is `Transcript` in shared/schemas/call-logs.ts. */
export type SpokenTurn = { speaker: Speaker; label: string; text: string };
export type ParsedTranscript = { kind: "turns"; turns: SpokenTurn[] } | { kind: "empty" } | { kind: "unknown" };

// 'User:' is how the voice platform itself writes the caller's lines.
const PREFIX = /(?<![\w'’])(AI|Human|User):[ \t]*/g;

function speakerOfPrefix(prefix: string): Pick<SpokenTurn, "speaker" | "label"> {
  return prefix === "AI" ? { speaker: "ai", label: CALL_LOG_TEXT.speakerAi } : { speaker: "human", label: CALL_LOG_TEXT.speakerHuman };
}

function speakerOfRole(role: string): Pick<SpokenTurn, "speaker" | "label"> {
  const r = role.trim().toLowerCase();
  if (["ai", "assistant", "bot", "agent"].includes(r)) return { speaker: "ai", label: CALL_LOG_TEXT.speakerAi };
  if (["human", "user", "customer", "caller"].includes(r)) return { speaker: "human", label: CALL_LOG_TEXT.speakerHuman };
  return { speaker: "other", label: role.trim() || "?" };
}

function parseText(text: string): ParsedTranscript {
  const turns: SpokenTurn[] = [];
  const marks = [...text.matchAll(PREFIX)];
  const before = text.slice(0, marks[0]?.index ?? text.length).trim();
  if (before) turns.push({ speaker: "other", label: "", text: before });
  marks.forEach((m, i) => {
    const start = m.index + m[0].length;
    const end = marks[i + 1]?.index ?? text.length;
    const said = text.slice(start, end).trim();
    if (said) turns.push({ ...speakerOfPrefix(m[1]), text: said });
  });
  return turns.length ? { kind: "turns", turns } : { kind: "empty" };
}

const isRecord = (v: unknown): v is Record<string, unknown> => typeof v === "object" && v !== null && !Array.isArray(v);

function parseItems(items: unknown[]): ParsedTranscript {
  if (items.length === 0) return { kind: "empty" };
  if (!items.every((item) => isRecord(item) && typeof item.role === "string")) return { kind: "unknown" };
  const records = items as Record<string, unknown>[];
  const said = (item: Record<string, unknown>) =>
    typeof item.content === "string" ? item.content : typeof item.text === "string" ? item.text : null;
  if (!records.some((item) => said(item) !== null)) return { kind: "unknown" };
  const turns = records
    // The system prompt is configuration, not something said on the call.
    .filter((item) => String(item.role).toLowerCase() !== "system")
    .map((item) => ({ ...speakerOfRole(String(item.role)), text: (said(item) ?? "").trim() }))
    .filter((turn) => turn.text);
  return turns.length ? { kind: "turns", turns } : { kind: "empty" };
}

/**
 * Reads the platform's `Transcript` defensively: the value comes from another service unvalidated,
 * so any other shape is reported as unknown instead of failing the dialog.
 */
export function parseTranscript(transcript: unknown): ParsedTranscript {
  if (transcript == null) return { kind: "empty" };
  if (typeof transcript === "string") return transcript.trim() ? parseText(transcript) : { kind: "empty" };
  if (Array.isArray(transcript)) return parseItems(transcript);
  return { kind: "unknown" };
}

export function TranscriptMessage({ children, tone = "muted" }: { children: string; tone?: "muted" | "error" }) {
  return (
    <p role={tone === "error" ? "alert" : undefined} className={cn("p-4 text-sm", tone === "error" ? "font-medium text-destructive" : "text-muted-foreground")}>
      {children}
    </p>
  );
}

export function TranscriptView({ transcript }: { transcript: unknown }) {
  const parsed = parseTranscript(transcript);
  if (parsed.kind === "empty") return <TranscriptMessage>{CALL_LOG_TEXT.noTranscript}</TranscriptMessage>;
  if (parsed.kind === "unknown") return <TranscriptMessage tone="error">{CALL_LOG_TEXT.transcriptUnknown}</TranscriptMessage>;
  return (
    <ol className="grid gap-3 p-4" aria-label={CALL_LOG_TEXT.transcript}>
      {parsed.turns.map((turn, i) => (
        <li
          key={i}
          data-speaker={turn.speaker}
          className={cn(
            "grid max-w-[85%] gap-1 rounded-lg px-3 py-2 text-sm",
            turn.speaker === "ai" ? "justify-self-start bg-accent text-accent-foreground" : "justify-self-end bg-muted text-foreground",
            turn.speaker === "other" && "justify-self-stretch max-w-none bg-transparent px-0 text-muted-foreground",
          )}
        >
          {turn.label ? <span className="text-xs font-semibold tracking-wide uppercase opacity-75">{turn.label}</span> : null}
          <span className="whitespace-pre-line">{turn.text}</span>
        </li>
      ))}
    </ol>
  );
}
