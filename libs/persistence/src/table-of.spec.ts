// tableOf against real Postgres: the names it gives work in raw SQL of a schema that needs quoting, for an
// entity's table (from its metadata) and for a table without an entity (from the configured schema).
import { Column, DataSource, Entity, PrimaryColumn } from 'typeorm';
import { createTestDatabase, TestDatabase } from '@vap/testing';
import { tableOf } from './table-of';

const SERVER_URL = process.env.DATABASE_URL || 'postgres://postgres@127.0.0.1:5432/postgres';
const SCHEMA = 'Odd-Schema';

@Entity({ name: 'widgets' })
class Widget {
  @PrimaryColumn('int')
  id: number;

  @Column('text')
  name: string;
}

describe('tableOf (Postgres)', () => {
  let db: TestDatabase;
  let ds: DataSource;

  beforeAll(async () => {
    db = await createTestDatabase(SERVER_URL, 'vap_table_of');
    const setup = await new DataSource({ type: 'postgres', url: db.url }).initialize();
    await setup.query(`CREATE SCHEMA "Odd-Schema"`);
    await setup.query(`CREATE TABLE "Odd-Schema".widgets (id int PRIMARY KEY, name text NOT NULL)`);
    await setup.query(`CREATE TABLE "Odd-Schema".tags (widget_id int, tag text)`);
    await setup.destroy();
    ds = await new DataSource({
      type: 'postgres',
      url: db.url,
      schema: SCHEMA,
      entities: [Widget],
    }).initialize();
  });

  afterAll(async () => {
    await ds?.destroy();
    await db?.drop();
  });

  it("names an entity's table from its metadata and another table in the configured schema", () => {
    expect(tableOf(ds, Widget)).toBe('"Odd-Schema"."widgets"');
    expect(tableOf(ds, 'tags')).toBe('"Odd-Schema"."tags"');
    expect(tableOf(ds.manager, 'tags')).toBe(tableOf(ds, 'tags'));
  });

  it('gives names raw SQL can use, inside a transaction too', async () => {
    await ds.transaction(async (em) => {
      await em.query(`INSERT INTO ${tableOf(em, Widget)} (id, name) VALUES (1, 'w')`);
      await em.query(`INSERT INTO ${tableOf(em, 'tags')} (widget_id, tag) VALUES (1, 'blue')`);
    });
    const rows = (await ds.query(
      `SELECT w.name, t.tag FROM ${tableOf(ds, Widget)} w JOIN ${tableOf(ds, 'tags')} t ON t.widget_id = w.id`,
    )) as { name: string; tag: string }[];
    expect(rows).toEqual([{ name: 'w', tag: 'blue' }]);
    expect(await ds.getRepository(Widget).findOneByOrFail({ id: 1 })).toEqual({ id: 1, name: 'w' });
  });

  it('names a table of a data source without a schema unqualified', async () => {
    const plain = await new DataSource({ type: 'postgres', url: db.url }).initialize();
    try {
      expect(tableOf(plain, 'tags')).toBe('"tags"');
    } finally {
      await plain.destroy();
    }
  });
});
