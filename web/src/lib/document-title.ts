// Each screen names itself in the browser tab and to screen readers (WCAG 2.4.2).
import { useEffect } from "react";
import { APP_NAME } from "@web/components/brand/logo";

export function documentTitle(page: string | undefined) {
  return page ? `${page} · ${APP_NAME}` : APP_NAME;
}

export function useDocumentTitle(page: string | undefined) {
  useEffect(() => {
    document.title = documentTitle(page);
  }, [page]);
}
