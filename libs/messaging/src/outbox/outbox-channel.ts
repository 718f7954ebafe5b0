import { DataSource } from 'typeorm';

/** The LISTEN/NOTIFY channel that wakes the relay of one schema. */
export function outboxChannel(dataSource: DataSource): string {
  const schema = (dataSource.options as { schema?: string }).schema ?? 'public';
  return `outbox_${schema}`;
}
