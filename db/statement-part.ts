/**
 * SQL one repository function hands to another's statement, so two reads or writes of one transaction travel in one
 * round trip: common table expressions (run first, in order) and one scalar column, each with its bindings.
 */
export interface StatementPart {
  ctes: Array<{ name: string; sql: string; bindings: readonly unknown[] }>;
  column: { sql: string; bindings: readonly unknown[] };
}
