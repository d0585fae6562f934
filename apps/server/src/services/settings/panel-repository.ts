import type { Insertable, Kysely, Transaction, Updateable } from 'kysely';
import type { DB, PanelsTable } from '../../db/schema';

type Db = Kysely<DB> | Transaction<DB>;

export async function findPanel(db: Db, serverId: string, panelId: string): Promise<PanelsTable | undefined> {
  return db.selectFrom('panels').selectAll().where('server_id', '=', serverId).where('id', '=', panelId).executeTakeFirst();
}

export async function listPanels(db: Db, serverId: string): Promise<PanelsTable[]> {
  return db.selectFrom('panels').selectAll().where('server_id', '=', serverId).orderBy('created_at').execute();
}

export async function insertPanel(db: Db, row: Insertable<PanelsTable>): Promise<void> {
  await db.insertInto('panels').values(row).execute();
}

export async function updatePanel(db: Db, panelId: string, fields: Omit<Updateable<PanelsTable>, 'id' | 'server_id' | 'created_at'>): Promise<void> {
  await db.updateTable('panels').set(fields).where('id', '=', panelId).execute();
}

export async function deletePanel(db: Db, panelId: string): Promise<void> {
  await db.deleteFrom('panels').where('id', '=', panelId).execute();
}
