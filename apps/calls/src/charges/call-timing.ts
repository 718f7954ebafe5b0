import { Call } from '../calls/entities/call.entity';

export interface CallTiming {
  durationSeconds: number;
  billSeconds: number;
}

/**
 * Talk time and billable time of a call that just ended. An answered call is billed whatever status it
 * ended in (a stale call failed by the platform, a call cut by a guard): the carrier's recorded times
 * when it gave them, else the time the platform saw it live, never more than the agent's max duration
 * (the carrier enforces it as the call's time limit). A call never answered costs nothing.
 */
export function callTiming(
  call: Pick<Call, 'startedAt' | 'agentSettings'>,
  answered: boolean,
  endedAt: Date,
  reported: { durationSeconds?: number | null; billDurationSeconds?: number | null },
): CallTiming {
  if (!answered) return { durationSeconds: 0, billSeconds: 0 };
  const measured = call.startedAt ? Math.max(0, (endedAt.getTime() - call.startedAt.getTime()) / 1000) : 0;
  const cap = call.agentSettings?.maxCallDurationSecs ?? null;
  const observed = cap ? Math.min(measured, cap) : measured;
  const durationSeconds = Math.max(0, Math.round(reported.durationSeconds ?? observed));
  const billSeconds = Math.max(0, Math.round(reported.billDurationSeconds ?? durationSeconds));
  return { durationSeconds, billSeconds };
}
