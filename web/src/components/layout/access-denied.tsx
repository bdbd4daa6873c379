// A screen's own refusal (docs/product/screens-and-routes.md#roles-and-flags): the page stays, its content is replaced by why.
import { ShieldAlert } from "lucide-react";
import { ACCESS_TEXT } from "@shared/messages";
import { Card, CardContent } from "@web/components/ui/card";

export function AccessDenied({ description }: { description: string }) {
  return (
    <Card role="alert" className="mx-auto mt-10 w-full max-w-lg">
      <CardContent className="flex flex-col items-center gap-3 py-10 text-center">
        <ShieldAlert className="size-10 text-destructive" aria-hidden />
        <h1 className="text-xl font-semibold">{ACCESS_TEXT.accessDenied}</h1>
        <p className="text-sm text-muted-foreground">{description}</p>
      </CardContent>
    </Card>
  );
}
