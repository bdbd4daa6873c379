// The sidebar's user block: initials avatar, display name, Settings and Sign out.
import { Link } from "@tanstack/react-router";
import { LogOut, Settings } from "lucide-react";
import { useState } from "react";
import { displayName, initials } from "@shared/format";
import { NAV_TEXT } from "@shared/messages";
import { SubmitButton } from "@web/components/ui/submit-button";
import { useAuth } from "@web/lib/auth/auth-provider";
import { cn } from "@web/lib/utils";

export function UserMenu({ onNavigate }: { onNavigate?: () => void }) {
  const { user, signOut } = useAuth();
  const [signingOut, setSigningOut] = useState(false);
  const name = displayName(user);

  async function onSignOut() {
    setSigningOut(true);
    // The provider toasts either way; on success the route guard moves to /auth.
    await signOut().catch(() => setSigningOut(false));
  }

  return (
    <div className="flex flex-col gap-1 border-t border-sidebar-border p-3">
      <div className="flex min-w-0 items-center gap-3 px-2 py-2">
        <span
          className="grid size-9 shrink-0 place-items-center rounded-full bg-primary text-sm font-semibold text-primary-foreground"
          aria-hidden
        >
          {initials(name) || "?"}
        </span>
        <div className="min-w-0">
          <p className="truncate text-sm font-medium" title={name}>
            {name}
          </p>
          {user?.company ? <p className="truncate text-xs text-muted-foreground">{user.company}</p> : null}
        </div>
      </div>
      <Link
        to="/settings"
        onClick={onNavigate}
        className={navItemClass}
        activeProps={{ className: activeNavItemClass, "aria-current": "page" }}
      >
        <Settings aria-hidden />
        {NAV_TEXT.settings}
      </Link>
      <SubmitButton
        type="button"
        variant="ghost"
        className={cn(navItemClass, "justify-start font-normal")}
        onClick={onSignOut}
        pending={signingOut}
        pendingLabel={NAV_TEXT.signOut}
        icon={<LogOut aria-hidden />}
      >
        {NAV_TEXT.signOut}
      </SubmitButton>
    </div>
  );
}

export const navItemClass =
  "flex h-10 items-center gap-3 rounded-md px-3 text-sm text-sidebar-foreground/80 transition-colors hover:bg-sidebar-accent hover:text-sidebar-foreground focus-visible:ring-2 focus-visible:ring-ring focus-visible:outline-none [&_svg]:size-4 [&_svg]:shrink-0";
export const activeNavItemClass = "bg-sidebar-accent font-medium text-sidebar-accent-foreground";
