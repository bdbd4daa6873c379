// Alerts (decision 071): the signed-in account's rules, the Test replay, its history and the bell.
// Every route reads and writes the caller's own rows only; another account's rule or alert is 404.
import type { AlertRuleView } from "@shared/schemas/alerts";
import { currentUser } from "../middleware/auth";
import { testRule } from "../services/alerts/replay";
import { acknowledgeAlert, bell, checkForAccount, createRule, deleteRule, listHistory, listRules, readBell, updateRule } from "../services/alerts/rules";
import { DeclaredRoutes } from "./serve";

export const alertRoutes = new DeclaredRoutes()
  .serve("GET /api/alerts/rules", async (c) => c.json(await listRules(c.var.db, currentUser(c))))
  .serve("POST /api/alerts/rules", async (c) => {
    const rule: AlertRuleView = await createRule(c.var.db, currentUser(c), c.req.valid("json"), new Date());
    return c.json({ rule }, 201);
  })
  .serve("PUT /api/alerts/rules/:id", async (c) => {
    const rule = await updateRule(c.var.db, currentUser(c), c.req.valid("param").id, c.req.valid("json"), new Date());
    return c.json({ rule });
  })
  .serve("DELETE /api/alerts/rules/:id", async (c) => {
    await deleteRule(c.var.db, currentUser(c), c.req.valid("param").id, new Date());
    return c.json({ deleted: true as const });
  })
  .serve("POST /api/alerts/test", async (c) => {
    const user = currentUser(c);
    const rule = c.req.valid("json");
    // The same account checks as a save: Test shows nothing a save would refuse.
    await checkForAccount(c.var.db, user, rule);
    return c.json(await testRule(c.var.db, user, rule, new Date()));
  })
  .serve("GET /api/alerts/history", async (c) => c.json({ alerts: await listHistory(c.var.db, currentUser(c).id, c.req.valid("query").limit) }))
  .serve("POST /api/alerts/history/:id/acknowledge", async (c) => c.json({ alert: await acknowledgeAlert(c.var.db, currentUser(c), c.req.valid("param").id, new Date()) }))
  .serve("GET /api/alerts/bell", async (c) => c.json(await bell(c.var.db, currentUser(c).id)))
  .serve("POST /api/alerts/bell/read", async (c) => c.json({ unread: await readBell(c.var.db, currentUser(c).id, c.req.valid("json").ids, new Date()) }));
