// The usage bars' fill per level (spec 2 §9): green below 80 %, yellow from 80 %, red at the limit.
import type { UsageLevel } from "@shared/usage";

export const USAGE_INDICATOR: Record<UsageLevel, string> = {
  ok: "bg-success",
  warning: "bg-warning",
  full: "bg-destructive",
};
