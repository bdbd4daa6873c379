// Routes whose screens arrive with a later feature: the title and a one-line notice.
import { Construction } from "lucide-react";
import { PAGE_TEXT } from "@shared/messages";
import { Card, CardContent } from "@web/components/ui/card";
import { PageHeader } from "./page-header";

export function PlaceholderPage({ title, feature }: { title: string; feature: string }) {
  return (
    <>
      <PageHeader title={title} />
      <Card>
        <CardContent className="flex items-center gap-3 p-6 text-sm text-muted-foreground">
          <Construction className="size-5 shrink-0 text-primary" aria-hidden />
          <p>{PAGE_TEXT.arrivesWith(feature)}</p>
        </CardContent>
      </Card>
    </>
  );
}
