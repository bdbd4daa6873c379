import { renderToStaticMarkup } from "react-dom/server";
import { describe, expect, it } from "vitest";
import { FIRST_SCREENS, firstScreenHtml, firstScreenOf } from "@shared/first-paint/first-screen";
import { FirstScreen } from "./first-screen";

describe("the first screen", () => {
  it("is the same markup in the SPA as in the HTML the Worker paints, for every page that has one", () => {
    const headers = Object.values(FIRST_SCREENS);
    expect(headers.some((h) => h.description)).toBe(true);
    for (const header of [...headers, { title: "Calls & <notes>", description: 'Say "hi" & <wave>' }]) {
      expect(renderToStaticMarkup(<FirstScreen header={header} />)).toBe(firstScreenHtml(header));
    }
  });

  it("belongs to the pages every signed-in account may open, with or without a trailing slash", () => {
    expect(firstScreenOf("/dashboard")).toBe(FIRST_SCREENS["/dashboard"]);
    expect(firstScreenOf("/call-logs/")).toBe(FIRST_SCREENS["/call-logs"]);
    for (const path of ["/", "/auth", "/admin", "/analytics", "/daily-report", "/toString", "/__proto__", "/dashboard/x"]) {
      expect(firstScreenOf(path), path).toBeNull();
    }
  });
});
