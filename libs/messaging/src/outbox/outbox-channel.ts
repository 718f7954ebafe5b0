import { DataSource } from 'typeorm';

/** The channel that wakes the relay of one schema (wakeAfterCommit). */
export function outboxChannel(dataSource: DataSource): string {
  const schema = (dataSource.options as { schema?: string }).schema ?? 'public';
  return `outbox_${schema}`;
}
