// Where the page may connect and play media from, derived from the configuration rather than fixed:
// a custom Supabase domain and the voice platform's recording host must not be blocked by the CSP.
import type { AppConfig } from "./env";
import { usesVapi } from "./providers";

/** Where VAPI serves call recordings when RECORDING_ORIGINS does not say otherwise. */
export const VAPI_RECORDING_ORIGIN = "https://storage.vapi.ai";

export type ContentSources = { connect: string[]; media: string[] };

function origin(url: string): string | null {
  try {
    const parsed = new URL(url);
    return parsed.protocol === "https:" || parsed.protocol === "http:" ? parsed.origin : null;
  } catch {
    return null;
  }
}

const unique = (values: (string | null)[]) => [...new Set(values.filter((v): v is string => v !== null))];

export function contentSources(config: AppConfig | undefined): ContentSources {
  if (!config) return { connect: ["'self'"], media: ["'self'"] };
  const supabase = config.SUPABASE_URL ? origin(config.SUPABASE_URL) : null;
  const recordings = config.RECORDING_ORIGINS
    ? config.RECORDING_ORIGINS.split(",").map((v) => origin(v.trim()))
    : usesVapi(config)
      ? [VAPI_RECORDING_ORIGIN]
      : [];
  return { connect: unique(["'self'", supabase]), media: unique(["'self'", ...recordings]) };
}
