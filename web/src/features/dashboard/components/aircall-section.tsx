// Aircall (docs/product/dashboard-and-counts.md#sections-and-who-sees-them): inbound, outbound, answered and transferred calls over the applied dates, for
// the chosen Aircall user and line.
import { useQueries, useQuery } from "@tanstack/react-query";
import { useState } from "react";
import { DASHBOARD_TEXT } from "@shared/messages";
import { aircallOptionsQueryOptions, aircallQueries } from "../api/dashboard";
import { STORE_NUMBER_NAMES, STORES, type Store } from "@shared/constants";
import { Figure, FigureGrid, FilterSelect, Section, SectionBody, useSectionChoice, withValue, type Applied } from "./section";

const isStore = (s: string): s is Store => (STORES as readonly string[]).includes(s);

export function AircallSection({ applied, generation }: { applied: Applied; generation: number }) {
  const options = useQuery(aircallOptionsQueryOptions(0));
  const [userName, setUserName] = useState("");
  const range = { startDate: applied.startDate, endDate: applied.endDate };
  // The chosen store stands for its Aircall line (docs/product/README.md#records, mapped by the server), and the line
  // select shows that line; a line (or All) chosen in the section itself takes its place until the
  // next refresh, as the Appointments section's own store does.
  const storeLine = applied.store && isStore(applied.store) ? STORE_NUMBER_NAMES[applied.store] : "";
  const { value: numberName, chosen, choose: setNumberName } = useSectionChoice(generation, storeLine);
  const line = chosen ? { numberName: numberName || undefined } : { store: applied.store };
  const counts = useQueries({ queries: aircallQueries({ ...range, userName: userName || undefined, ...line }, generation) });
  const [inbound, outbound, answered, transfers] = counts;
  return (
    <Section id="aircall" title={DASHBOARD_TEXT.aircall} applied={{ ...range, store: chosen ? numberName || undefined : applied.store }} showStore>
      <div className="grid grid-cols-1 gap-3 sm:grid-cols-2">
        <FilterSelect id="aircall-user" label={DASHBOARD_TEXT.userName} value={userName} onChange={setUserName} options={options.data?.users ?? []} allLabel={DASHBOARD_TEXT.allOptions} />
        <FilterSelect id="aircall-number" label={DASHBOARD_TEXT.numberName} value={numberName} onChange={setNumberName} options={withValue(options.data?.numbers ?? [], numberName)} allLabel={DASHBOARD_TEXT.allOptions} />
      </div>
      <SectionBody queries={counts} errorText={DASHBOARD_TEXT.aircallError}>
        <FigureGrid label={DASHBOARD_TEXT.aircall}>
          <Figure label={DASHBOARD_TEXT.inboundCalls} value={inbound.data?.count} />
          <Figure label={DASHBOARD_TEXT.outboundCalls} value={outbound.data?.count} />
          <Figure label={DASHBOARD_TEXT.outboundAnswered} value={answered.data?.count} />
          <Figure label={DASHBOARD_TEXT.storeTransferSolutions} value={transfers.data?.count} />
        </FigureGrid>
      </SectionBody>
    </Section>
  );
}
