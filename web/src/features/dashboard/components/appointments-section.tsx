// Shopwindow Appointments (docs/product/dashboard-and-counts.md#sections-and-who-sees-them): the appointment count, by status and by category, for the applied
// dates narrowed by the section's own store, booked-by and type filters. Its store select starts on
// the top store and shows the store it counts (useSectionChoice).
import { useQueries, useQuery } from "@tanstack/react-query";
import { useState } from "react";
import { APPOINTMENT_CATEGORY_KEYS } from "@shared/constants";
import { DASHBOARD_TEXT } from "@shared/messages";
import { appointmentOptionsQueryOptions, appointmentQueries } from "../api/dashboard";
import { Figure, FigureGrid, FilterSelect, Section, SectionBody, useSectionChoice, withValue, type Applied } from "./section";

export function AppointmentsSection({ applied, generation }: { applied: Applied; generation: number }) {
  const options = useQuery(appointmentOptionsQueryOptions(0));
  const [bookedBy, setBookedBy] = useState("");
  const [appointmentType, setAppointmentType] = useState("");
  const { value: store, choose: setStore } = useSectionChoice(generation, applied.store ?? "");
  const filters = { ...applied, store: store || undefined, bookedBy: bookedBy || undefined, appointmentType: appointmentType || undefined };
  const [count, status, category] = useQueries({ queries: appointmentQueries(filters, generation) });
  return (
    <Section id="appointments" title={DASHBOARD_TEXT.appointments} applied={{ ...applied, store: store || undefined }} showStore>
      <div className="grid grid-cols-1 gap-3 sm:grid-cols-3">
        <FilterSelect id="appointments-store" label={DASHBOARD_TEXT.store} value={store} onChange={setStore} options={withValue(options.data?.stores ?? [], store)} allLabel={DASHBOARD_TEXT.allStores} />
        <FilterSelect id="appointments-booked-by" label={DASHBOARD_TEXT.bookedBy} value={bookedBy} onChange={setBookedBy} options={options.data?.bookedBy ?? []} allLabel={DASHBOARD_TEXT.allOptions} />
        <FilterSelect id="appointments-type" label={DASHBOARD_TEXT.appointmentType} value={appointmentType} onChange={setAppointmentType} options={options.data?.types ?? []} allLabel={DASHBOARD_TEXT.allOptions} />
      </div>
      <SectionBody queries={[count, status, category]} errorText={DASHBOARD_TEXT.appointmentsError} skeletonHeight="h-64">
        <FigureGrid label={DASHBOARD_TEXT.appointments}>
          <Figure label={DASHBOARD_TEXT.appointmentsTotal} value={count.data?.count} />
        </FigureGrid>
        <FigureGrid label={DASHBOARD_TEXT.byStatus}>
          {Object.entries(status.data?.counts ?? {}).map(([k, v]) => (
            <Figure key={k} label={k} value={v} />
          ))}
        </FigureGrid>
        <FigureGrid label={DASHBOARD_TEXT.byCategory}>
          {APPOINTMENT_CATEGORY_KEYS.map((k) => (
            <Figure key={k} label={k} value={category.data?.counts[k]} />
          ))}
        </FigureGrid>
      </SectionBody>
    </Section>
  );
}
