// Our API's error body (`{error, code, field?}`) read back from the request client's
// `Error("<status>: <body>")`, for the toasts that depend on the code or the field.
export type ApiErrorBody = { status: number | null; error?: string; code?: string; field?: string };

export function apiErrorBody(err: unknown): ApiErrorBody {
  if (!(err instanceof Error)) return { status: null };
  const match = /^(\d{3}): ([\s\S]*)$/.exec(err.message);
  if (!match) return { status: null };
  const status = Number(match[1]);
  try {
    const body = JSON.parse(match[2]) as Record<string, unknown>;
    const text = (v: unknown) => (typeof v === "string" && v ? v : undefined);
    return { status, error: text(body.error), code: text(body.code), field: text(body.field) };
  } catch {
    return { status };
  }
}

/** The server's own message, when it sent one worth showing a person. */
export function serverMessage(err: unknown): string | undefined {
  return apiErrorBody(err).error;
}
