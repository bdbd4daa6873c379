// Transcript search (decision 059): the demo staff account searches its calls on /call-logs by a word
// their transcripts say, sees the matches newest first with the word marked in each snippet and the
// search in the address, and the clear button brings the list back.
import { CALL_LOG_TEXT, CALL_SEARCH_TEXT } from "../shared/messages.ts";
import { DEMO, check, seePath, signIn, type Journey } from "./harness.ts";

/** Said in every inbound demo call ("Thank you for calling …"), so the seed's index must find it. */
const WORD = "calling";
/** Words match by their stem: "calling" also finds "call", "calls", "called". */
const STEM = "call";

export default {
  name: "Search calls by a transcript word and see it highlighted",
  async run({ page }) {
    await signIn(page, DEMO.staff);
    await page.goto("/call-logs");
    await seePath(page, "/call-logs");
    await page.getByRole("table").waitFor();

    const box = page.getByRole("searchbox", { name: CALL_SEARCH_TEXT.label });
    await box.fill(WORD);
    // The debounced search moves into the address.
    await page.waitForURL((url) => url.pathname === "/call-logs" && url.searchParams.get("q") === WORD);
    const results = page.getByRole("list", { name: CALL_SEARCH_TEXT.label });
    await results.waitFor();
    const marks = results.locator("mark");
    await marks.first().waitFor();
    const marked = await marks.allTextContents();
    check(marked.length > 0 && marked.every((m) => m.toLowerCase().startsWith(STEM)), `the snippets mark other words than forms of "${WORD}": ${marked.join(", ")}`);
    check(marked.some((m) => m.toLowerCase() === WORD), `no snippet marks "${WORD}" itself: ${marked.join(", ")}`);
    const status = await page.getByRole("status").filter({ hasText: /calls? found/ }).first().textContent();
    check(/\d+\+? calls? found/.test(status ?? ""), `the result count is not announced: "${status}"`);
    // Newest first.
    const times = await results.locator("time").evaluateAll((els) => els.map((e) => e.getAttribute("datetime") ?? ""));
    check(times.length > 1 && times.every((t, i) => i === 0 || times[i - 1] >= t), `the matches are not newest first: ${times.slice(0, 5).join(", ")}`);

    // A reload keeps the search (it is in the address).
    await page.reload();
    await page.getByRole("list", { name: CALL_SEARCH_TEXT.label }).locator("mark").first().waitFor();
    check((await page.getByRole("searchbox", { name: CALL_SEARCH_TEXT.label }).inputValue()) === WORD, "the box lost the search after a reload");

    await page.getByRole("button", { name: CALL_SEARCH_TEXT.clear }).click();
    await page.waitForURL((url) => url.pathname === "/call-logs" && !url.searchParams.has("q"));
    await page.getByRole("table").waitFor();
    check((await page.getByRole("list", { name: CALL_SEARCH_TEXT.label }).count()) === 0, "the matches stayed after clearing the search");
    await page.getByRole("button", { name: CALL_LOG_TEXT.refresh }).waitFor();
  },
} satisfies Journey;
