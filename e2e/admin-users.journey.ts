// Admin Dashboard, User Management and Available Phone Numbers (docs/product/screens-and-routes.md#route-table, docs/product/errors-and-texts.md#validation-messages, docs/product/errors-and-texts.md#errors-and-texts): search an
// account, grant it a flag, delete it (its platform number goes back to the pool), see the number
// 'Unassigned', refuse an assignment without a number ('Missing Information'), assign the number to
// another account, and find all of it in the audit log. At 1280 px the users table shows every column
// without sideways scrolling; on a phone each account is a card.
import { ADMIN_TEXT } from "../shared/messages.ts";
import { buyNumber, registerAccount } from "./admin-api.ts";
import type { Locator } from "playwright-core";
import { check, DEMO, seePath, seeText, signIn, type Journey } from "./harness.ts";

const digits = (s: string) => s.replace(/\D/g, "");

/** How wider than its scrolling frame a table is, the page's own overflow, and where its headings are. */
function tableLayout(table: Locator) {
  return table.evaluate((t) => {
    const frame = t.parentElement!;
    const page = document.documentElement;
    return {
      overflow: frame.scrollWidth - frame.clientWidth,
      pageOverflow: page.scrollWidth - page.clientWidth,
      // A screen-reader-only head is a 1 px box.
      headVisible: (() => {
        const head = (t as HTMLTableElement).tHead!.getBoundingClientRect();
        return head.width > 1 && head.height > 1;
      })(),
      headers: [...t.querySelectorAll("th")].map((th) => {
        const r = th.getBoundingClientRect();
        return { text: th.textContent ?? "", left: Math.round(r.left), right: Math.round(r.right) };
      }),
    };
  });
}

export default {
  name: "Admin searches users, grants access, deletes a user and assigns their number from the pool",
  async run({ page, baseUrl }) {
    const leaving = await registerAccount(baseUrl, "leaving");
    const number = await buyNumber(baseUrl, leaving.token, "512");
    const staying = await registerAccount(baseUrl, "staying");

    await signIn(page, DEMO.admin);
    await page.goto("/admin");
    await seePath(page, "/admin");
    await seeText(page, ADMIN_TEXT.userManagement);

    // Server-side search: only the matching account is listed.
    const usersTable = page.locator("table").filter({ hasText: ADMIN_TEXT.columns.username });
    await usersTable.locator("tbody tr").filter({ hasText: DEMO.customer }).waitFor();

    // At 1280 px every column, Actions included, lies in the window, and the table does not scroll sideways.
    await page.setViewportSize({ width: 1280, height: 800 });
    const wide = await tableLayout(usersTable);
    check(wide.overflow <= 0, `the users table should not scroll sideways at 1280 px (${wide.overflow} px too wide)`);
    const columns = Object.values(ADMIN_TEXT.columns);
    check(JSON.stringify(wide.headers.map((h) => h.text)) === JSON.stringify(columns), `the headings should be ${columns.join(", ")}: ${wide.headers.map((h) => h.text).join(", ")}`);
    check(wide.headVisible, "the column headings should show at 1280 px");
    const outside = wide.headers.filter((h) => h.left < 0 || h.right > 1280);
    check(outside.length === 0, `every heading should lie within the 1280 px window: ${outside.map((h) => `${h.text} ${h.left}-${h.right}`).join(", ")}`);
    for (const name of [`${ADMIN_TEXT.assignPhone}: ${DEMO.customer}`, `${ADMIN_TEXT.delete}: ${DEMO.customer}`]) {
      const box = await page.getByRole("button", { name, exact: true }).boundingBox();
      check(box && box.x >= 0 && box.x + box.width <= 1280, `'${name}' should lie within the window: ${JSON.stringify(box)}`);
    }
    await page.getByLabel(ADMIN_TEXT.searchUsers, { exact: true }).fill(leaving.email.slice(0, 20));
    const row = usersTable.locator("tbody tr").filter({ hasText: leaving.email });
    await row.waitFor();
    await usersTable.locator("tbody tr").filter({ hasText: DEMO.customer }).waitFor({ state: "detached" });

    // Grant a flag: the checkbox holds after a reload (the server has it).
    const aircall = page.getByLabel(`${ADMIN_TEXT.flagLabels.call_app}: ${leaving.email}`, { exact: true });
    await aircall.check();
    await seeText(page, ADMIN_TEXT.flagsUpdated);
    await page.reload();
    await page.getByLabel(ADMIN_TEXT.searchUsers, { exact: true }).fill(leaving.email.slice(0, 20));
    await page.getByLabel(`${ADMIN_TEXT.flagLabels.call_app}: ${leaving.email}`, { exact: true }).and(page.locator(":checked")).waitFor();

    // The bought number is listed as the account's.
    const numbersTable = page.locator("table").filter({ hasText: ADMIN_TEXT.numberColumns.assignedTo });
    const numberRow = () => numbersTable.locator("tbody tr").filter({ has: page.locator("td").first().filter({ hasText: new RegExp(digits(number).slice(-4)) }) });
    await numberRow().filter({ hasText: leaving.email }).waitFor();

    // Delete: confirmation dialog, then the account is gone and the number is back in the pool.
    await page.getByRole("button", { name: `${ADMIN_TEXT.delete}: ${leaving.email}`, exact: true }).click();
    const dialog = page.getByRole("alertdialog");
    await dialog.getByText(ADMIN_TEXT.deleteDescription(leaving.email)).waitFor();
    await dialog.getByRole("button", { name: ADMIN_TEXT.deleteConfirm, exact: true }).click();
    await seeText(page, ADMIN_TEXT.userDeleted);
    await row.waitFor({ state: "detached" });
    await numberRow().filter({ hasText: ADMIN_TEXT.unassigned }).waitFor();

    // Assign it to another account: without a number first ('Missing Information'), then with it.
    await page.getByLabel(ADMIN_TEXT.searchUsers, { exact: true }).fill(staying.email.slice(0, 20));
    await page.getByRole("button", { name: `${ADMIN_TEXT.assignPhone}: ${staying.email}`, exact: true }).click();
    const assign = page.getByRole("dialog");
    await assign.getByRole("button", { name: ADMIN_TEXT.assign, exact: true }).click();
    await seeText(page, ADMIN_TEXT.missingInformation);
    await seeText(page, ADMIN_TEXT.selectBoth);
    const select = assign.getByLabel(ADMIN_TEXT.numberLabel, { exact: true });
    const option = select.locator("option").filter({ hasText: new RegExp(digits(number).slice(-4)) });
    await select.selectOption((await option.first().getAttribute("value"))!);
    await assign.getByRole("button", { name: ADMIN_TEXT.assign, exact: true }).click();
    await seeText(page, ADMIN_TEXT.assigned);
    await numberRow().filter({ hasText: staying.email }).waitFor();

    // The audit log, newest first: the assignment, the deletion, the flag.
    const audit = page.locator("table").last().locator("tbody tr");
    await audit.first().filter({ hasText: ADMIN_TEXT.auditActions.assign_phone_number }).waitFor();
    const top = (await audit.allTextContents()).slice(0, 3).join(" | ");
    check(top.includes(ADMIN_TEXT.auditActions.delete_user) && top.includes(ADMIN_TEXT.auditActions.set_flags), `audit log should list the deletion and the flag change: ${top}`);

    // On a phone each account is a card: every field under its label, the actions in reach, nothing
    // wider than the screen (the other admin tables too).
    await page.setViewportSize({ width: 390, height: 844 });
    await page.getByLabel(ADMIN_TEXT.searchUsers, { exact: true }).fill("");
    await usersTable.locator("tbody tr").filter({ hasText: DEMO.customer }).waitFor();
    const card = usersTable.locator("tbody tr").filter({ hasText: DEMO.customer });
    const narrow = await tableLayout(usersTable);
    check(narrow.overflow <= 0 && narrow.pageOverflow <= 0, `nothing should scroll sideways at 390 px: table ${narrow.overflow} px, page ${narrow.pageOverflow} px`);
    check(!narrow.headVisible, "the column headings should give way to each card's labels");
    const labels = await card.locator("td").evaluateAll((cells) => cells.map((td) => td.getAttribute("data-label")));
    check(JSON.stringify(labels) === JSON.stringify(columns), `each field of a card should carry its label: ${labels.join(", ")}`);
    const cardBox = (await card.boundingBox())!;
    check(cardBox.width <= 390 && cardBox.height > cardBox.width / 2, `an account should read as a card: ${JSON.stringify(cardBox)}`);
    const assignButton = page.getByRole("button", { name: `${ADMIN_TEXT.assignPhone}: ${DEMO.customer}`, exact: true });
    await assignButton.scrollIntoViewIfNeeded();
    const assignBox = (await assignButton.boundingBox())!;
    check(assignBox.x >= 0 && assignBox.x + assignBox.width <= 390, `'Assign Phone' should lie within the screen: ${JSON.stringify(assignBox)}`);
    for (const heading of [ADMIN_TEXT.numberColumns.assignedTo, ADMIN_TEXT.auditColumns.detail]) {
      const other = await tableLayout(page.locator("table").filter({ hasText: heading }));
      check(other.overflow <= 0, `the table with '${heading}' should not scroll sideways at 390 px (${other.overflow} px too wide)`);
    }
  },
} satisfies Journey;
