// The shape of reads an isolate makes once and remembers, sent in another request's batch
// (services/warm-up.ts gathers them; each cache that remembers something gives its own).
import type { BatchItem } from "drizzle-orm/batch";

/** Statements to send in a batch of someone else's, and what to do with their results. */
export type IsolateReads = { statements: BatchItem<"sqlite">[]; read: (results: unknown[]) => void };
