// Public pages outside the sidebar (plans, checkout, payment results, activation, mailbox).
import { Link } from "@tanstack/react-router";
import type { ReactNode } from "react";
import { Logo } from "@web/components/brand/logo";

export function PublicLayout({ children, wide = false }: { children: ReactNode; wide?: boolean }) {
  return (
    <div className="min-h-dvh bg-muted/40">
      <header className="border-b border-border bg-background">
        <div className={`mx-auto flex h-16 items-center px-4 sm:px-6 ${wide ? "max-w-6xl" : "max-w-3xl"}`}>
          <Link to="/" className="rounded-md focus-visible:ring-2 focus-visible:ring-ring focus-visible:outline-none">
            <Logo />
          </Link>
        </div>
      </header>
      <main className={`mx-auto px-4 py-8 sm:px-6 ${wide ? "max-w-6xl" : "max-w-3xl"}`}>{children}</main>
    </div>
  );
}
