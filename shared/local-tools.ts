// The SPA's pages of the local tools: the mailbox of the local mail adapter and the local webhook
// receiver. They exist outside production only; in production the Worker answers each of them 404
// (worker/shell/serve-shell.ts), as it answers their APIs under /api/local.

/** The local tools' pages (each with any path below it). */
export const LOCAL_TOOL_PAGES = ["/mailbox", "/webhook-inbox"] as const;

/** Whether a path is a page of a local tool (a trailing slash or a deeper path included). */
export const isLocalToolPage = (path: string) => LOCAL_TOOL_PAGES.some((page) => path === page || path.startsWith(`${page}/`));
