import { CompiledQuery, type Compilable, type Kysely, type Transaction } from 'kysely';
import { prepareOnPostgres, supportsRowLocks } from './database';
import type { DB } from './schema';

/** A query's values by name: strings, numbers and lists of strings are bound, the others choose what is built. */
export type QueryValues = Record<string, string | number | readonly string[] | boolean | null | undefined>;

/** Stands for a call's value among a compiled query's parameters. */
class Slot {
  constructor(readonly name: string) {}
  /** A value written into the SQL's text instead of bound shows up in the text, and is refused there. */
  toString(): string {
    return `\u0000slot:${this.name}`;
  }
  /** A value computed with is refused at once (its result would be bound as every call's). */
  valueOf(): never {
    throw new Error(`A reusable query computed with its bound value ${this.name}`);
  }
}

/** A non-empty string, a non-zero number or a non-empty list is bound as a parameter; any other value chooses the shape. */
const isBound = (value: QueryValues[string]): value is string | number | readonly string[] =>
  Array.isArray(value) ? value.length > 0 : (typeof value === 'string' || typeof value === 'number') && !!value;

/** Whether the value named `name` goes as a parameter: bound, and not one the query writes into its text. */
const isSlot = (name: string, value: QueryValues[string], written: ReadonlySet<string>) => isBound(value) && !written.has(name);

/** The values' shape: which are bound, and the others as they are (with a falsy string or number, its value). */
function shapeOf(values: QueryValues, written: ReadonlySet<string>): string {
  let shape = '';
  for (const name in values) {
    const value = values[name];
    shape += isSlot(name, value, written) ? `${name}=?;` : `${name}=${typeof value}:${String(value)};`;
  }
  return shape;
}

/** The stand-ins `build` gets: a slot for each value that is bound, the others as they are. */
function standIns<V extends QueryValues>(values: V, written: ReadonlySet<string>): V {
  const stand: QueryValues = {};
  for (const name in values) {
    const value = values[name];
    stand[name] = isSlot(name, value, written) ? (new Slot(name) as unknown as string) : value;
  }
  return stand as V;
}

/**
 * A query built and compiled once for each shape of its values, then run again with each call's
 * values. Kysely builds and compiles a query anew on every call: 10 to 85 µs (a list page's 20
 * columns the most), longer than SQLite takes to read the page. PostgreSQL prepares it once per
 * connection (`prepareOnPostgres`).
 *
 * `build` gets each non-empty string, non-zero number and non-empty list of strings as a stand-in
 * that Kysely binds as a parameter (a list as one value: PostgreSQL's array; SQLite binds none), and everything else
 * (booleans, null, undefined, '', 0 and an empty list) as it is: those choose the shape, so
 * `if (values.Subject)` or `values.Active === true` may decide what is built. It must use a bound
 * value only as a value: the first call of a shape refuses a query that computes with one or writes
 * one into the SQL's text (`sql.raw`, `sql.lit`, `sql.ref`); a list's length or items read in
 * `build` are not caught, and must not be read.
 *
 * `written` names values that `build` gets as they are, to write into the SQL's text: each value
 * is then a shape of its own, so only for a value from a small set that the caller bounds (the
 * size of a first page, which PostgreSQL's general plan prices right only when it is written in).
 */
export function reusableQuery<V extends QueryValues, R>(build: (db: Kysely<DB>, values: V) => Compilable<R>, written: ReadonlyArray<keyof V & string> = []) {
  const compiled = new Map<string, { sql: string; parameters: readonly unknown[] }>();
  const writtenNames: ReadonlySet<string> = new Set(written);
  return async (db: Kysely<DB> | Transaction<DB>, values: V): Promise<R[]> => {
    const postgres = supportsRowLocks(db);
    const key = `${postgres ? 'postgres' : 'sqlite'}|${shapeOf(values, writtenNames)}`;
    let template = compiled.get(key);
    if (!template) {
      const query = build(db, standIns(values, writtenNames)).compile();
      if (query.sql.includes('\u0000slot:')) throw new Error(`A reusable query wrote a bound value into its SQL: ${query.sql}`);
      // better-sqlite3 keeps its compiled statements already (database.ts).
      if (postgres) prepareOnPostgres(query.sql);
      template = { sql: query.sql, parameters: query.parameters };
      compiled.set(key, template);
    }
    const parameters = template.parameters.map((p) => (p instanceof Slot ? values[p.name] : p));
    return (await db.executeQuery<R>(CompiledQuery.raw(template.sql, parameters))).rows;
  };
}
