// A D1 binding that counts its round trips, for tests that prove a job's cost does not grow with
// its rows: each batch is one, and so is each statement run alone.

export function countingD1(real: D1Database) {
  let trips = 0;
  const wrap = (st: D1PreparedStatement): D1PreparedStatement => {
    const bind = st.bind.bind(st);
    const runs = { first: st.first.bind(st), all: st.all.bind(st), run: st.run.bind(st), raw: st.raw.bind(st) };
    return Object.assign(st, {
      bind: (...values: unknown[]) => wrap(bind(...values)),
      first: (...args: never[]) => (trips++, (runs.first as (...a: never[]) => unknown)(...args)),
      all: () => (trips++, runs.all()),
      run: () => (trips++, runs.run()),
      raw: (...args: never[]) => (trips++, (runs.raw as (...a: never[]) => unknown)(...args)),
    }) as D1PreparedStatement;
  };
  const d1 = {
    prepare: (sql: string) => wrap(real.prepare(sql)),
    batch: (statements: D1PreparedStatement[]) => (trips++, real.batch(statements)),
    exec: (sql: string) => (trips++, real.exec(sql)),
  } as unknown as D1Database;
  return { d1, trips: () => trips };
}
