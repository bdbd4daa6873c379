// The first screen of a signed-in page, painted from the HTML before any JavaScript has run
// (decision 030): the app's frame and the page's header (title and the line under it), what a visitor
// reads first and the largest text a page paints at first. The Worker writes it into the shell's root element; the SPA
// shows the same markup while it restores the session and loads the page, so the screen never
// changes from the title to a spinner and back. A web test holds the two to one markup.
// Relative imports carry `.ts` so Node scripts can load this file through type stripping.
import { AGENT_TEXT, CALL_LOG_TEXT, DASHBOARD_TEXT, NAV_TEXT, PHONE_TEXT, SETTINGS_TEXT } from "../messages.ts";

/** The page a path names: a trailing slash is the same page. */
export const pagePath = (pathname: string) => (pathname.length > 1 ? pathname.replace(/\/+$/, "") : pathname);

/** A page's header as its page shows it: the title and the line under it. */
export type FirstScreenHeader = { title: string; description?: string };

/** Pages every signed-in account may open (no flag, no admin): their header never misleads. */
export const FIRST_SCREENS: Readonly<Record<string, FirstScreenHeader>> = {
  "/dashboard": { title: DASHBOARD_TEXT.pageTitle },
  "/call-logs": { title: NAV_TEXT.callLogs, description: CALL_LOG_TEXT.intro },
  "/agent-settings": { title: AGENT_TEXT.pageTitle, description: AGENT_TEXT.pageDescription },
  "/phone-numbers": { title: NAV_TEXT.phoneNumbers, description: PHONE_TEXT.intro },
  "/settings": { title: SETTINGS_TEXT.title },
};

/** The header painted first on a path, or null for none. */
export function firstScreenOf(pathname: string): FirstScreenHeader | null {
  const path = pagePath(pathname);
  return Object.hasOwn(FIRST_SCREENS, path) ? FIRST_SCREENS[path] : null;
}

/** The classes of the frame and the title, as the app layout and the page header use them. */
export const FIRST_SCREEN_CLASS = {
  frame: "min-h-dvh bg-muted/40 md:grid md:grid-cols-[16rem_minmax(0,1fr)]",
  sidebar: "sticky top-0 hidden h-dvh border-r border-sidebar-border bg-sidebar md:block",
  topBar: "sticky top-0 z-40 flex h-14 items-center gap-3 border-b border-border bg-background/95 px-4 backdrop-blur md:hidden",
  main: "min-w-0 px-4 py-6 sm:px-6 md:px-8 md:py-8",
  header: "mx-auto mb-6 w-full max-w-6xl",
  title: "text-2xl font-semibold tracking-tight",
  description: "mt-1 text-sm text-muted-foreground",
} as const;

const escapeHtml = (s: string) => s.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;").replace(/"/g, "&quot;");

/** The markup of the first screen, for the Worker to write into the shell. */
export function firstScreenHtml({ title, description }: FirstScreenHeader): string {
  const c = FIRST_SCREEN_CLASS;
  const line = description ? `<p class="${c.description}">${escapeHtml(description)}</p>` : "";
  return (
    `<div class="${c.frame}"><aside class="${c.sidebar}"></aside><header class="${c.topBar}"></header>` +
    `<main id="main" class="${c.main}"><div class="${c.header}"><h1 class="${c.title}">${escapeHtml(title)}</h1>${line}</div></main></div>`
  );
}

/**
 * Signed-out pages whose first screen the build renders from their own components (decision 033),
 * written beside the SPA as FIRST_SCREENS_FILE: { [path]: markup }. Only a bare path has one: search
 * parameters pick another view of the page.
 */
export const FIRST_SCREENS_FILE = "first-screens.json";
export const RENDERED_FIRST_SCREENS = { "/auth": "web/src/features/auth/first-screen.tsx" } as const;
