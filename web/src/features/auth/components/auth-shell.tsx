// The sign-in screen's frame: the form in the middle and, on large screens,
// decorative panels on either side (docs/product/accounts-and-sign-in.md#the-sign-in-screen /auth).
import { ChartColumn, Bot, CalendarCheck, PhoneCall, SlidersHorizontal } from "lucide-react";
import type { ReactNode } from "react";
import { AUTH_TEXT } from "@shared/messages";
import { Logo } from "@web/components/brand/logo";

const capabilityIcons = [Bot, SlidersHorizontal, ChartColumn, PhoneCall];

/** docs/product/README.md#what-the-product-does: the four things a user can do, named on the sign-in screen at every width. */
function Capabilities({ className, itemClassName, iconClassName }: { className: string; itemClassName: string; iconClassName: string }) {
  return (
    <ul aria-label={AUTH_TEXT.capabilitiesLabel} className={className}>
      {AUTH_TEXT.capabilities.map((text, i) => {
        const Icon = capabilityIcons[i % capabilityIcons.length];
        return (
          <li key={text} className={itemClassName}>
            <span aria-hidden className={iconClassName}>
              <Icon className="size-4.5" />
            </span>
            {text}
          </li>
        );
      })}
    </ul>
  );
}

// On large screens the list sits in the left panel; below that breakpoint, under the form. Only one of
// the two is displayed at a time, so a screen reader meets the list once.
function CapabilitiesPanel() {
  return (
    <aside
      aria-label={AUTH_TEXT.capabilitiesLabel}
      className="relative hidden overflow-hidden bg-gradient-to-br from-brand-900 via-brand-700 to-brand-500 p-10 text-white lg:flex lg:flex-col lg:justify-between"
    >
      <div aria-hidden className="pointer-events-none absolute -top-24 -left-24 size-72 rounded-full bg-white/10 blur-3xl" />
      <Logo inverted className="relative text-lg" />
      <div className="relative grid gap-6">
        <p className="max-w-xs text-2xl leading-snug font-semibold">Your AI voice agents, answering every call.</p>
        <Capabilities
          className="grid gap-4"
          itemClassName="flex items-center gap-3 text-sm text-white/90"
          iconClassName="grid size-9 shrink-0 place-items-center rounded-lg bg-white/15"
        />
      </div>
      <p className="relative text-xs text-white/60">Calls, agents and reports in one place.</p>
    </aside>
  );
}

const bars = [40, 64, 52, 80, 70, 92, 60, 76, 48, 84, 66, 58];

function CallPreviewPanel() {
  return (
    <aside aria-hidden className="relative hidden overflow-hidden bg-brand-50 p-10 lg:flex lg:flex-col lg:justify-center">
      <div className="pointer-events-none absolute -right-20 -bottom-20 size-72 rounded-full bg-brand-200/60 blur-3xl" />
      <div className="relative mx-auto grid w-full max-w-xs gap-4">
        <div className="rounded-2xl border border-brand-100 bg-white p-4 shadow-sm">
          <div className="flex items-center gap-3">
            <span className="grid size-9 place-items-center rounded-full bg-primary text-primary-foreground">
              <PhoneCall className="size-4" />
            </span>
            <div>
              <p className="text-sm font-medium text-foreground">Incoming call</p>
              <p className="text-xs text-muted-foreground">Answered by your agent</p>
            </div>
          </div>
          <div className="mt-4 flex h-12 items-end gap-1">
            {bars.map((h, i) => (
              <span key={i} className="flex-1 rounded-sm bg-brand-400/70" style={{ height: `${h}%` }} />
            ))}
          </div>
        </div>
        <div className="ml-6 rounded-2xl rounded-tl-sm bg-primary p-3 text-sm text-primary-foreground shadow-sm">
          Thanks for calling! I can book your appointment for tomorrow at 10 am.
        </div>
        <div className="mr-6 rounded-2xl rounded-tr-sm border border-brand-100 bg-white p-3 text-sm text-foreground shadow-sm">
          Perfect, see you then.
        </div>
        <div className="flex w-fit items-center gap-2 rounded-full border border-brand-100 bg-white px-3 py-1.5 text-xs font-medium text-brand-700 shadow-sm">
          <CalendarCheck className="size-3.5" />
          Appointment booked
        </div>
      </div>
    </aside>
  );
}

export function AuthShell({ children, notice }: { children: ReactNode; notice?: ReactNode }) {
  return (
    <div className="grid min-h-dvh bg-background lg:grid-cols-[minmax(0,1fr)_minmax(26rem,30rem)_minmax(0,1fr)]">
      <CapabilitiesPanel />
      <main className="flex flex-col items-center justify-center px-4 py-10 sm:px-8">
        <Logo className="mb-8 text-lg lg:hidden" />
        <div className="grid w-full max-w-md gap-4">
          {notice}
          {children}
          <Capabilities
            className="mt-4 grid gap-2 sm:grid-cols-2 lg:hidden"
            itemClassName="flex items-center gap-2 text-sm text-muted-foreground"
            iconClassName="grid size-7 shrink-0 place-items-center rounded-md bg-brand-50 text-brand-700"
          />
        </div>
      </main>
      <CallPreviewPanel />
    </div>
  );
}
