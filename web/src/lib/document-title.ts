// Each screen names itself in the browser tab and to screen readers (WCAG 2.4.2).
import { useEffect } from "react";

/** The product's name: the tab title's suffix and the logo's word mark. */
export const APP_NAME = "Voice Agent Ops";

export function documentTitle(page: string | undefined) {
  return page ? `${page} · ${APP_NAME}` : APP_NAME;
}

export function useDocumentTitle(page: string | undefined) {
  useEffect(() => {
    document.title = documentTitle(page);
  }, [page]);
}
