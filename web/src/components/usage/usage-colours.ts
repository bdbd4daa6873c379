// The usage bars' fill per level (docs/product/constants.md#business-constants): green below 80 %, yellow from 80 %, red at the limit.
import type { UsageLevel } from "@shared/usage";

export const USAGE_INDICATOR: Record<UsageLevel, string> = {
  ok: "bg-success",
  warning: "bg-warning",
  full: "bg-destructive",
};
