// "Upcoming" is the one appointment figure always counted live (decision 009): it must read only its
// covering index, never the appointments table, with every filter the dashboard can apply.
import { describe, expect, it } from "vitest";
import { RecordingMeter } from "../../test/explain";
import { appointmentCategoryCounts } from "./appointments";

describe("the Upcoming count's plan", () => {
  it("is a covering-index search, whatever the filters", async () => {
    for (const filters of [{}, { store: "MIAMI" }, { bookedBy: "Ana", appointmentType: "Hearing Test" }]) {
      const meter = new RecordingMeter();
      await appointmentCategoryCounts(meter, { dateFilterType: "range", startDate: "2026-03-01", endDate: "2026-03-31", ...filters } as never);
      const upcoming = (await meter.plans()).filter((p) => p.sql.includes("appointments_scheduled_cover_idx"));
      expect(upcoming, JSON.stringify(filters)).toHaveLength(1);
      const plan = upcoming[0].plan.join(" | ");
      expect(plan, JSON.stringify(filters)).toMatch(/SEARCH r USING COVERING INDEX appointments_scheduled_cover_idx/);
    }
  });
});
