// The private area's navigation (docs/product/screens-and-routes.md#route-table): fixed on wide screens, a drawer on phones.
import { Link, type LinkProps } from "@tanstack/react-router";
import { Bell, Bot, CalendarSearch, FileSpreadsheet, LayoutDashboard, PhoneCall, Phone, ShieldCheck, type LucideIcon } from "lucide-react";
import { NAV_TEXT } from "@shared/messages";
import { AlertBell } from "@web/components/alerts/alert-bell";
import { Logo } from "@web/components/brand/logo";
import { useAuth } from "@web/lib/auth/auth-provider";
import { activeNavItemClass, navItemClass, UserMenu } from "./user-menu";

/** `adminOnly`: shown to admins; `staffOnly`: shown to store staff (shopwindows_info), as the page itself. */
type NavItem = { to: LinkProps["to"]; label: string; icon: LucideIcon; adminOnly?: boolean; staffOnly?: boolean };

const NAV_ITEMS: NavItem[] = [
  { to: "/dashboard", label: NAV_TEXT.dashboard, icon: LayoutDashboard },
  { to: "/agent-settings", label: NAV_TEXT.agents, icon: Bot },
  { to: "/phone-numbers", label: NAV_TEXT.phoneNumbers, icon: Phone },
  { to: "/call-logs", label: NAV_TEXT.callLogs, icon: PhoneCall },
  { to: "/analytics", label: NAV_TEXT.analytics, icon: CalendarSearch },
  { to: "/alerts", label: NAV_TEXT.alerts, icon: Bell },
  { to: "/daily-report", label: NAV_TEXT.dailyReport, icon: FileSpreadsheet, staffOnly: true },
  { to: "/admin", label: NAV_TEXT.admin, icon: ShieldCheck, adminOnly: true },
];

/** `bell`: false in the phone's drawer, whose top bar shows the bell (and whose close button takes its corner). */
export function SidebarContent({ onNavigate, bell = true }: { onNavigate?: () => void; bell?: boolean }) {
  const { user } = useAuth();
  const items = NAV_ITEMS.filter((item) => (!item.adminOnly || user?.is_admin) && (!item.staffOnly || user?.shopwindows_info));
  return (
    <div className="flex h-full flex-col">
      <div className="flex h-16 items-center justify-between px-5">
        <Link to="/dashboard" onClick={onNavigate} className="rounded-md focus-visible:ring-2 focus-visible:ring-ring focus-visible:outline-none">
          <Logo />
        </Link>
        {bell ? <AlertBell onNavigate={onNavigate} /> : null}
      </div>
      <nav aria-label={NAV_TEXT.mainNavigation} className="flex-1 overflow-y-auto px-3 py-2">
        <ul className="grid gap-1">
          {items.map(({ to, label, icon: Icon }) => (
            <li key={label}>
              <Link
                to={to}
                onClick={onNavigate}
                className={navItemClass}
                activeProps={{ className: activeNavItemClass, "aria-current": "page" }}
              >
                <Icon aria-hidden />
                {label}
              </Link>
            </li>
          ))}
        </ul>
      </nav>
      <UserMenu onNavigate={onNavigate} />
    </div>
  );
}
