// Call status (spec 2 §4): completed (or ended) is success, queued is pending, anything else default.
import { Badge } from "@web/components/ui/badge";

export function CallStatusBadge({ status }: { status: string }) {
  const s = status.toLowerCase();
  const variant = s === "completed" || s === "ended" ? "success" : s === "queued" ? "pending" : "default";
  return <Badge variant={variant}>{status}</Badge>;
}
