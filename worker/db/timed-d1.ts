// A D1 binding that measures itself: the time D1 says its SQL took, the wall time some query of the
// request was in flight (round trips included) and the rows D1 says it read. One per request
// (worker/middleware/context.ts), so the Server-Timing header of every API answer reports the whole
// request's database cost, whichever code sent the queries (docs/decisions/026-database-time.md).
// It also counts the request's sequential round trips and, outside production, can wait a simulated
// network distance before each one (`D1_RTT_MS`), so a local run shows what D1 across a region costs.
// It measures only: every call goes through to D1 as it was made.

type Statement = D1PreparedStatement;
type Meta = { meta?: { rows_read?: number; duration?: number; timings?: { sql_duration_ms?: number } } };

export type D1TimerOptions = {
  /** Milliseconds waited before every D1 call, as a network round trip would take (0 or unset: none). */
  rttMs?: number;
  /** How the wait is made; tests hand in their own. */
  delay?: (ms: number) => Promise<void>;
};

const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/** A request's D1 figures, as its Server-Timing reports them. */
export type D1Figures = { durationMs: number; sqlMs: number; unmetered: number; rowsRead: number; queries: number; trips: number };

/** The Server-Timing metric each figure is reported as (D1Timer.serverTiming): a duration or, for counts, a description. */
const TIMING_METRICS = {
  sqlMs: "db",
  durationMs: "db-wait",
  rowsRead: "db-rows",
  queries: "db-queries",
  unmetered: "db-unmetered",
  trips: "db-trips",
} as const satisfies Record<keyof D1Figures, string>;

/** The D1 figures a Server-Timing value carries, read back from D1Timer.serverTiming's format; absent ones are left out. */
export function timingFigures(value: string): Partial<D1Figures> {
  const byMetric = new Map<string, number>();
  for (const metric of value.split(",")) {
    const [name, ...params] = metric.trim().split(";");
    const param = (key: string) => params.map((p) => p.trim()).find((p) => p.startsWith(`${key}=`))?.slice(key.length + 1).replace(/^"|"$/g, "");
    const n = Number(param("dur") ?? param("desc"));
    if (name && Number.isFinite(n)) byMetric.set(name.trim(), n);
  }
  const figures: Partial<D1Figures> = {};
  for (const [figure, metric] of Object.entries(TIMING_METRICS) as [keyof D1Figures, string][]) {
    const n = byMetric.get(metric);
    if (n !== undefined) figures[figure] = n;
  }
  return figures;
}

export class D1Timer {
  /** Milliseconds during which at least one query was in flight (parallel queries count once). */
  durationMs = 0;
  /** D1's own SQL time (meta.timings.sql_duration_ms, else meta.duration) summed over the answers that carry it. */
  sqlMs = 0;
  /** Statements whose answer carries no meta (raw, first): their time is only in durationMs. */
  unmetered = 0;
  /** D1's meta.rows_read summed over the answers that carry it (all, run, batch; not raw or first). */
  rowsRead = 0;
  /** Statements sent, a batch counting each of its statements (as D1's per-invocation limit does). */
  queries = 0;
  /**
   * Sequential round trips: every D1 call (a statement's all, first, run or raw, a batch, exec) is a
   * round trip, and one that starts while another is in flight overlaps it and adds none, so
   * `Promise.all` of two queries counts 1 and two awaited one after the other count 2.
   */
  trips = 0;
  #inFlight = 0;
  #since = 0;
  readonly #inner = new WeakMap<object, Statement>();
  readonly #rttMs: number;
  readonly #delay: (ms: number) => Promise<void>;

  constructor({ rttMs = 0, delay = sleep }: D1TimerOptions = {}) {
    this.#rttMs = rttMs;
    this.#delay = delay;
  }

  /** Runs one D1 call, counting its time only once when calls overlap; the simulated round trip is part of it. */
  async #timed<T>(statements: number, run: () => Promise<T>): Promise<T> {
    this.queries += statements;
    if (this.#inFlight++ === 0) {
      this.#since = performance.now();
      this.trips++;
    }
    try {
      if (this.#rttMs > 0) await this.#delay(this.#rttMs);
      return await run();
    } finally {
      if (--this.#inFlight === 0) this.durationMs += performance.now() - this.#since;
    }
  }

  #rows(result: unknown) {
    const meta = (result as Meta | null)?.meta;
    this.rowsRead += Number(meta?.rows_read ?? 0);
    this.sqlMs += Number(meta?.timings?.sql_duration_ms ?? meta?.duration ?? 0);
    return result;
  }

  #unmetered<T>(run: () => Promise<T>): () => Promise<T> {
    return () => {
      this.unmetered++;
      return run();
    };
  }

  #statement(stmt: Statement): Statement {
    const call = <T>(run: () => Promise<T>) => this.#timed(1, run);
    const wrapped = {
      bind: (...values: unknown[]) => this.#statement(stmt.bind(...values)),
      first: (column?: string) => call(this.#unmetered(() => (column === undefined ? stmt.first() : stmt.first(column)))),
      run: () => call(async () => this.#rows(await stmt.run())),
      all: () => call(async () => this.#rows(await stmt.all())),
      raw: (options?: { columnNames?: boolean }) => call(this.#unmetered(() => stmt.raw(options as { columnNames: true }))),
    };
    this.#inner.set(wrapped, stmt);
    return wrapped as unknown as Statement;
  }

  /** The binding to hand to drizzle and the services: every call goes through the timer. */
  wrap(d1: D1Database): D1Database {
    const unwrap = (s: Statement) => this.#inner.get(s) ?? s;
    const wrapped = {
      prepare: (query: string) => this.#statement(d1.prepare(query)),
      batch: (statements: Statement[]) =>
        this.#timed(statements.length, async () => {
          const results = await d1.batch(statements.map(unwrap));
          for (const r of results) this.#rows(r);
          return results;
        }),
      exec: (query: string) =>
        this.#timed(1, async () => {
          const result = await d1.exec(query);
          this.sqlMs += Number(result?.duration ?? 0);
          return result;
        }),
      dump: () => d1.dump(),
      withSession: (constraint?: D1SessionBookmark | D1SessionConstraint) => d1.withSession(constraint),
    };
    return wrapped as unknown as D1Database;
  }

  /**
   * Adds the figures of D1 work that this request started once its own was done, several side by
   * side (the reads a batch dispatches, after its sign-in's confirmation): their statements, rows and
   * SQL time count in; their round trips and wait overlapped each other's, so the largest adds.
   */
  includeAfter(other: D1Figures) {
    this.durationMs += other.durationMs;
    this.trips += other.trips;
    this.sqlMs += other.sqlMs;
    this.unmetered += other.unmetered;
    this.rowsRead += other.rowsRead;
    this.queries += other.queries;
  }

  /**
   * The Server-Timing value: the database's own time (`db`, D1's SQL time) and the time the request
   * waited on it (`db-wait`, round trips included) always; in development also the rows read, the
   * statements sent, how many of them came back without D1's timing (`db-unmetered`, drizzle's
   * row-array reads such as the sign-in lookup: their time is in `db-wait` only) and the sequential
   * round trips (`db-trips`).
   */
  serverTiming(withRows: boolean): string {
    const m = TIMING_METRICS;
    const parts = [`${m.sqlMs};dur=${this.sqlMs.toFixed(2)};desc="D1 SQL"`, `${m.durationMs};dur=${this.durationMs.toFixed(2)};desc="D1 round trips"`];
    if (withRows) {
      parts.push(`${m.rowsRead};desc="${this.rowsRead}"`, `${m.queries};desc="${this.queries}"`, `${m.unmetered};desc="${this.unmetered}"`, `${m.trips};desc="${this.trips}"`);
    }
    return parts.join(", ");
  }
}
