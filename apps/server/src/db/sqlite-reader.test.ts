import { sql } from 'kysely';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { sqliteFileDatabase } from '../test/harness';
import { openDatabase, type Database } from './database';

describe('The SQLite reader (Database.reads)', () => {
  let database: Database;
  beforeEach(async () => {
    database = await sqliteFileDatabase();
    await sql`create table notes (id integer primary key, body text, weight real)`.execute(database.db);
  });
  afterEach(() => database.destroy());

  type Note = { id: number; body: string | null; weight: number | null };
  const notes = async (reads = database.reads) => (await sql<Note>`select id, body, weight from notes order by id`.execute(reads)).rows;

  it('is a connection of its own for a database in a file, and reads what the API has committed, at once', async () => {
    expect(database.reads).not.toBe(database.db);
    await sql`insert into notes (body, weight) values ('first', 1.5), (null, 2)`.execute(database.db);
    expect(await notes()).toEqual([
      { id: 1, body: 'first', weight: 1.5 },
      { id: 2, body: null, weight: 2 },
    ]);
    await sql`update notes set body = 'second' where id = 2`.execute(database.db);
    expect((await notes())[1]).toEqual({ id: 2, body: 'second', weight: 2 });
    // Values are bound as the API's own connection binds them; statements are kept by their text.
    for (const id of [1, 2, 3]) {
      const { rows } = await sql<{ body: string }>`select body from notes where id = ${id}`.execute(database.reads);
      expect(rows.map((r) => r.body)).toEqual(id === 3 ? [] : [id === 1 ? 'first' : 'second']);
    }
  });

  it('answers while the API holds a write transaction open, without what that transaction has not committed', async () => {
    await sql`insert into notes (body) values ('kept')`.execute(database.db);
    await database.db
      .transaction()
      .execute(async (trx) => {
        await sql`delete from notes`.execute(trx);
        await sql`insert into notes (body) values ('not yet')`.execute(trx);
        // The API's connection is this transaction's until it ends: the reader does not wait for it.
        expect((await notes()).map((n) => n.body)).toEqual(['kept']);
        throw new Error('rolled back');
      })
      .catch(() => undefined);
    expect((await notes()).map((n) => n.body)).toEqual(['kept']);
  });

  it('runs reads only: a write or a transaction is refused with the reason, and the reader answers after', async () => {
    await expect(sql`insert into notes (body) values ('x')`.execute(database.reads)).rejects.toMatchObject({
      message: expect.stringContaining('A SQLite reader runs reads only'),
      code: 'SQLITE_READONLY',
    });
    await expect(database.reads.transaction().execute(async () => undefined)).rejects.toThrow('A SQLite reader runs single reads, not transactions');
    await expect(sql`select * from missing`.execute(database.reads)).rejects.toMatchObject({ message: 'no such table: missing', code: 'SQLITE_ERROR' });
    expect(await notes()).toEqual([]);
    expect(await notes(database.db)).toEqual([]);
  });

  it('answers statements sent together in the order sent, each with its own rows', async () => {
    await sql`insert into notes (body) select 'n' || value from json_each('[1,2,3,4,5,6,7,8]')`.execute(database.db);
    const answers = await Promise.all(
      [1, 2, 3, 4, 5, 6, 7, 8].map((id) => sql<{ body: string }>`select body from notes where id = ${id}`.execute(database.reads)),
    );
    expect(answers.map((a) => a.rows[0]!.body)).toEqual(['n1', 'n2', 'n3', 'n4', 'n5', 'n6', 'n7', 'n8']);
  });

  it('names every column, even one named __proto__', async () => {
    const { rows } = await sql<Record<string, unknown>>`select 1 as "__proto__", 2 as other`.execute(database.reads);
    expect(Object.entries(rows[0]!)).toEqual([
      ['__proto__', 1],
      ['other', 2],
    ]);
  });

  it('closes with the database', async () => {
    const reads = database.reads;
    await database.destroy();
    await expect(sql`select 1`.execute(reads)).rejects.toThrow('The SQLite reader is closed');
    database = await sqliteFileDatabase();
  });

  it('is the connection itself for a database in memory, which nothing else can read', async () => {
    const memory = await openDatabase('sqlite://:memory:', { migrate: false });
    expect(memory.reads).toBe(memory.db);
    await memory.destroy();
  });
});
