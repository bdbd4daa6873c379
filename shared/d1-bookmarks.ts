// The x-d1-bookmark header (decision 052): per D1 binding, the newest point of that database a client
// has seen, so its next request reads from a replica at least that recent (its own writes included).
// Written by the worker, kept and sent back unchanged by the SPA (web/src/lib/api.ts), parsed by
// both: `DB=<bookmark>` pairs joined by commas, one per database the client's requests touched.

export const BOOKMARK_HEADER = "x-d1-bookmark";

/** Binding name → bookmark. */
export type Bookmarks = Record<string, string>;

const BINDING = /^[A-Z][A-Z0-9_]{0,63}$/;
/** D1's bookmarks are hex groups joined by dashes; a little more is allowed, never a comma, "=" or space. */
const BOOKMARK = /^[A-Za-z0-9._:+/-]{1,200}$/;
const MAX_HEADER_LENGTH = 2048;
const MAX_DATABASES = 8;

/**
 * The bookmarks a header carries; {} when it is absent or malformed in any part (too long, too
 * many entries, a name or bookmark of another shape), so a forged or damaged value only costs the
 * request its freshness guarantee, never an error.
 */
export function parseBookmarks(header: string | null | undefined): Bookmarks {
  if (!header || header.length > MAX_HEADER_LENGTH) return {};
  const parts = header.split(",");
  if (parts.length > MAX_DATABASES) return {};
  const out: Bookmarks = {};
  for (const part of parts) {
    const eq = part.indexOf("=");
    const name = part.slice(0, eq).trim();
    const bookmark = part.slice(eq + 1).trim();
    if (eq < 0 || !BINDING.test(name) || !BOOKMARK.test(bookmark)) return {};
    out[name] = newer(out[name], bookmark);
  }
  return out;
}

/** D1's bookmarks sort lexicographically from oldest to newest. */
const newer = (a: string | undefined, b: string) => (a === undefined || b > a ? b : a);

/** Per database, the newer of the two bookmarks. */
export function mergeBookmarks(a: Bookmarks, b: Bookmarks): Bookmarks {
  const out: Bookmarks = { ...a };
  for (const [name, bookmark] of Object.entries(b)) out[name] = newer(out[name], bookmark);
  return out;
}

/** The header value, or null when there is nothing to send. */
export function formatBookmarks(bookmarks: Bookmarks): string | null {
  const entries = Object.entries(bookmarks)
    .filter(([name, bookmark]) => BINDING.test(name) && BOOKMARK.test(bookmark))
    .sort(([a], [b]) => (a < b ? -1 : 1))
    .slice(0, MAX_DATABASES);
  return entries.length > 0 ? entries.map(([name, bookmark]) => `${name}=${bookmark}`).join(",") : null;
}
