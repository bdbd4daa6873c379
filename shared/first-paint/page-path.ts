// Which page a URL path names, shared by the Worker (the shell it serves) and the SPA's early module
// entry, which must not load the first screens' texts to know it (decision 065).

/** The page a path names: a trailing slash is the same page. */
export const pagePath = (pathname: string) => (pathname.length > 1 ? pathname.replace(/\/+$/, "") : pathname);
