// A D1 binding that measures itself: the time D1 says its SQL took, the wall time some query of the
// request was in flight (round trips included) and the rows D1 says it read. One per request
// (worker/middleware/context.ts), so the Server-Timing header of every API answer reports the whole
// request's database cost, whichever code sent the queries (docs/decisions/026-database-time.md).
// It also counts the request's sequential round trips and, outside production, can wait a simulated
// network distance before each one (`D1_RTT_MS`), so a local run shows what D1 across a region costs.

type Statement = D1PreparedStatement;
type Meta = { meta?: { rows_read?: number; duration?: number; timings?: { sql_duration_ms?: number } } };

export type D1TimerOptions = {
  /** Milliseconds waited before every D1 call, as a network round trip would take (0 or unset: none). */
  rttMs?: number;
  /** How the wait is made; tests hand in their own. */
  delay?: (ms: number) => Promise<void>;
};

const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

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
    const wrapped = {
      bind: (...values: unknown[]) => this.#statement(stmt.bind(...values)),
      first: (column?: string) => this.#timed(1, this.#unmetered(() => (column === undefined ? stmt.first() : stmt.first(column)))),
      run: () => this.#timed(1, async () => this.#rows(await stmt.run())),
      all: () => this.#timed(1, async () => this.#rows(await stmt.all())),
      raw: (options?: { columnNames?: boolean }) => this.#timed(1, this.#unmetered(() => stmt.raw(options as { columnNames: true }))),
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
   * The Server-Timing value: the database's own time (`db`, D1's SQL time) and the time the request
   * waited on it (`db-wait`, round trips included) always; in development also the rows read, the
   * statements sent, how many of them came back without D1's timing (`db-unmetered`, drizzle's
   * row-array reads such as the sign-in lookup: their time is in `db-wait` only) and the sequential
   * round trips (`db-trips`).
   */
  serverTiming(withRows: boolean): string {
    const parts = [`db;dur=${this.sqlMs.toFixed(2)};desc="D1 SQL"`, `db-wait;dur=${this.durationMs.toFixed(2)};desc="D1 round trips"`];
    if (withRows) {
      parts.push(`db-rows;desc="${this.rowsRead}"`, `db-queries;desc="${this.queries}"`, `db-unmetered;desc="${this.unmetered}"`, `db-trips;desc="${this.trips}"`);
    }
    return parts.join(", ");
  }
}
