// Call status badge (docs/product/README.md#states-and-flows): completed is success (and so is ended, in the list), queued is
// pending, anything else is the default style.
import { Badge } from "@web/components/ui/badge";

export type CallStatusVariant = "success" | "pending" | "default";

export function callStatusVariant(status: string | null | undefined, where: "list" | "detail" = "list"): CallStatusVariant {
  const s = (status ?? "").trim().toLowerCase();
  if (s === "completed" || (where === "list" && s === "ended")) return "success";
  if (s === "queued") return "pending";
  return "default";
}

export function CallStatusBadge({ status, where = "list" }: { status: string | null | undefined; where?: "list" | "detail" }) {
  const variant = callStatusVariant(status, where);
  return (
    <Badge variant={variant} data-variant={variant}>
      {status || "-"}
    </Badge>
  );
}
