import { AnsweredBy } from '@vap/contracts';

/** carrier_b's AnsweredBy (machine detection) in the platform's terms. */
export function answeredByOf(value: string | undefined): AnsweredBy | null {
  if (!value) return null;
  if (value === 'human') return 'human';
  if (value === 'unknown') return 'unknown';
  if (value.startsWith('machine') || value === 'fax') return 'machine';
  return null;
}

export function intOrNull(value: string | undefined): number | null {
  return value !== undefined && /^\d+$/.test(value) ? Number(value) : null;
}

/** Timestamp is RFC 2822; a missing or unreadable one means "now". */
export function occurredAtOf(value: string | undefined): Date {
  const time = value ? Date.parse(value) : NaN;
  return Number.isNaN(time) ? new Date() : new Date(time);
}

export const CARRIER_B_FINAL_STATUSES = ['completed', 'busy', 'no-answer', 'failed', 'canceled'];
