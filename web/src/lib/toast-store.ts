// The toast queue: at most TOAST_LIMIT toasts at a time (docs/product/constants.md#business-constants); a dismissed toast
// stays mounted for its exit animation and is removed after TOAST_REMOVE_DELAY_MS.
import type { ReactNode } from "react";
import { useSyncExternalStore } from "react";
import { TOAST_LIMIT, TOAST_REMOVE_DELAY_MS } from "@shared/constants";

export type ToastVariant = "default" | "destructive";

export type ToastInput = {
  title?: ReactNode;
  description?: ReactNode;
  variant?: ToastVariant;
  /** Auto-close after this many ms (Radix default 5000). */
  duration?: number;
};

export type ToastItem = ToastInput & { id: string; open: boolean };

let items: ToastItem[] = [];
let counter = 0;
const listeners = new Set<() => void>();
const removalTimers = new Map<string, ReturnType<typeof setTimeout>>();

function publish(next: ToastItem[]) {
  items = next;
  for (const listener of listeners) listener();
}

function clearRemoval(id: string) {
  const timer = removalTimers.get(id);
  if (timer !== undefined) clearTimeout(timer);
  removalTimers.delete(id);
}

function scheduleRemoval(id: string) {
  if (removalTimers.has(id)) return;
  removalTimers.set(
    id,
    setTimeout(() => {
      removalTimers.delete(id);
      publish(items.filter((t) => t.id !== id));
    }, TOAST_REMOVE_DELAY_MS),
  );
}

/** Shows a toast; the newest pushes older ones out beyond the limit. */
export function toast(input: ToastInput) {
  counter = (counter + 1) % Number.MAX_SAFE_INTEGER;
  const id = String(counter);
  const next = [{ ...input, id, open: true }, ...items];
  for (const dropped of next.slice(TOAST_LIMIT)) clearRemoval(dropped.id);
  publish(next.slice(0, TOAST_LIMIT));
  return { id, dismiss: () => dismissToast(id) };
}

/** Closes one toast, or all when no id is given. */
export function dismissToast(id?: string) {
  const targets = new Set(id === undefined ? items.map((t) => t.id) : [id]);
  for (const target of targets) scheduleRemoval(target);
  publish(items.map((t) => (targets.has(t.id) ? { ...t, open: false } : t)));
}

function subscribe(listener: () => void) {
  listeners.add(listener);
  return () => {
    listeners.delete(listener);
  };
}

const snapshot = () => items;

export function useToasts(): ToastItem[] {
  return useSyncExternalStore(subscribe, snapshot, snapshot);
}

/** For tests: empty the queue and cancel pending removals. */
export function resetToasts() {
  for (const id of [...removalTimers.keys()]) clearRemoval(id);
  publish([]);
}
