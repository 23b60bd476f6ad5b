// What one measured side of a /proof bench scenario gives, in a module of its own: the bare-insert side
// (proof-db.ts) produces it and the report (proof-report.ts) prints it, and neither imports the other.

/** One measured side of a scenario: the API's creations or the bare inserts. */
export interface SideResult {
  /** Requests (or inserts) made in the measured pass. */
  n: number;
  /** 201 answers (or inserted rows). */
  ok: number;
  /** Anything else: other statuses, connection errors, failed inserts. */
  other: number;
  seconds: number;
  latenciesMs: number[];
  /** Completion times in ms since the pass started, for the rate at the start and at the end of the pass. */
  doneAtMs: number[];
  /** Event-loop utilisation of the main thread during the pass (0..1): the app on the API side, knex on the bare side. */
  mainThreadBusy: number;
  /** SQL statements sent per creation (or insert), warm-up included: knex 'query' events, BEGIN and COMMIT counted. */
  statementsEach: number;
}
