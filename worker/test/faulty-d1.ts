// A D1 binding whose Nth statement fails, for the data-safety proof. Statements are counted in the
// order they reach D1, one by one inside a batch; when the Nth is inside a batch, that statement is
// swapped for one that fails in SQLite, so the real D1 decides what a failed batch leaves behind.
export function faultyD1(real: D1Database, failAt: number) {
  const state = { statements: 0, hit: false };
  const realOf = new WeakMap<object, D1PreparedStatement>();
  const fail = () => {
    state.hit = true;
    throw new Error("D1_ERROR: injected failure");
  };
  const wrap = (stmt: D1PreparedStatement): D1PreparedStatement => {
    const proxy = new Proxy(stmt, {
      get(target, key) {
        if (key === "bind") return (...args: unknown[]) => wrap(target.bind(...args));
        if (key === "run" || key === "all" || key === "first" || key === "raw") {
          return (...args: unknown[]) => {
            if (++state.statements === failAt) fail();
            return (target[key] as (...a: unknown[]) => unknown).apply(target, args);
          };
        }
        const v = Reflect.get(target, key, target);
        return typeof v === "function" ? v.bind(target) : v;
      },
    });
    realOf.set(proxy, stmt);
    return proxy;
  };
  // The request's database is a D1 session of the binding: a session is counted the same way.
  const proxyOf = (base: D1Database): D1Database => new Proxy(base, {
    get(target, key) {
      if (key === "withSession") return (constraint?: string) => proxyOf(target.withSession(constraint) as unknown as D1Database);
      if (key === "prepare") return (query: string) => wrap(target.prepare(query));
      if (key === "batch") {
        return (stmts: D1PreparedStatement[]) => {
          const list = stmts.map((s) => realOf.get(s) ?? s);
          const start = state.statements;
          state.statements += list.length;
          if (failAt > start && failAt <= state.statements) {
            state.hit = true;
            list[failAt - start - 1] = target.prepare("INSERT INTO injected_failure_no_such_table (x) VALUES (1)");
          }
          return target.batch(list);
        };
      }
      const v = Reflect.get(target, key, target);
      return typeof v === "function" ? v.bind(target) : v;
    },
  });
  const db = proxyOf(real);
  return { db, state };
}
