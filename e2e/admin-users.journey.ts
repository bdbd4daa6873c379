// Admin Dashboard, User Management and Available Phone Numbers (spec 2 §2, §5, §8): search an
// account, grant it a flag, delete it (its platform number goes back to the pool), see the number
// 'Unassigned', refuse an assignment without a number ('Missing Information'), assign the number to
// another account, and find all of it in the audit log.
import { ADMIN_TEXT } from "../shared/messages.ts";
import { buyNumber, registerAccount } from "./admin-api.ts";
import { check, DEMO, seePath, seeText, signIn, type Journey } from "./harness.ts";

const digits = (s: string) => s.replace(/\D/g, "");

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
  },
} satisfies Journey;
