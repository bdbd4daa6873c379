// Leads (docs/product/dashboard-and-counts.md#sections-and-who-sees-them): the lead form submissions over the applied dates, in total and by store.
import { useQuery } from "@tanstack/react-query";
import { DASHBOARD_TEXT } from "@shared/messages";
import { leadSummaryQueryOptions } from "../api/dashboard";
import { Figure, FigureGrid, Section, SectionBody, type Applied } from "./section";

export function LeadsSection({ applied, generation }: { applied: Applied; generation: number }) {
  const leads = useQuery(leadSummaryQueryOptions(applied, generation));
  return (
    <Section id="leads" title={DASHBOARD_TEXT.leads} applied={applied} showStore>
      <SectionBody queries={[leads]} errorText={DASHBOARD_TEXT.leadsError} skeletonHeight="h-40">
        <FigureGrid label={DASHBOARD_TEXT.leads}>
          <Figure label={DASHBOARD_TEXT.totalSubmissions} value={leads.data?.totalSubmissions} />
        </FigureGrid>
        <FigureGrid label={DASHBOARD_TEXT.byStore}>
          {Object.entries(leads.data?.byStore ?? {}).map(([k, v]) => (
            <Figure key={k} label={k} value={v} />
          ))}
        </FigureGrid>
      </SectionBody>
    </Section>
  );
}
