import { Link } from "@tanstack/react-router";
import { PAGE_TEXT } from "@shared/messages";
import { Logo } from "@web/components/brand/logo";
import { Button } from "@web/components/ui/button";
import { useDocumentTitle } from "@web/lib/document-title";

export function NotFoundPage() {
  useDocumentTitle(PAGE_TEXT.notFoundTitle);
  return (
    <main className="flex min-h-dvh flex-col items-center justify-center gap-6 bg-muted/40 px-4 text-center">
      <Logo />
      <div>
        <p className="text-5xl font-bold text-primary">404</p>
        <h1 className="mt-3 text-2xl font-semibold tracking-tight">{PAGE_TEXT.notFoundTitle}</h1>
        <p className="mt-2 text-sm text-muted-foreground">{PAGE_TEXT.notFoundText}</p>
      </div>
      <Button asChild>
        <Link to="/">{PAGE_TEXT.backHome}</Link>
      </Button>
    </main>
  );
}
