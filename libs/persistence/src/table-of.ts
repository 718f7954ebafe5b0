import { DataSource, EntityManager, EntityTarget, ObjectLiteral } from 'typeorm';

const quote = (name: string) => `"${name.replace(/"/g, '""')}"`;

/**
 * The schema-qualified, quoted name of one of the service's tables, for raw SQL. An entity's table comes
 * from its metadata; a table without an entity (given by name) lives in the schema the data source is
 * configured with. Raw SQL never spells a schema itself, so it follows the options (tests use other schemas).
 */
export function tableOf(
  source: DataSource | EntityManager,
  table: EntityTarget<ObjectLiteral> | string,
): string {
  const dataSource = source instanceof DataSource ? source : source.connection;
  const configured = (dataSource.options as { schema?: string }).schema;
  if (typeof table === 'string') return configured ? `${quote(configured)}.${quote(table)}` : quote(table);
  const { schema, tableName } = dataSource.getMetadata(table);
  const owner = schema ?? configured;
  return owner ? `${quote(owner)}.${quote(tableName)}` : quote(tableName);
}
