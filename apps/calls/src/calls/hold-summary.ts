import { HoldEvent, HoldSummary } from '@vap/messages';
import { HoldSignal } from './entities/call-session.entity';

const round1 = (n: number) => Math.round(n * 10) / 10;

/**
 * Pairs the carrier's hold start/end signals into hold events. A hold still open when the call ended
 * counts until the end and is not recovered (ended_on_hold). An end reporting its own length wins over
 * the time between the two signals, which a carrier may deliver late.
 */
export function summarizeHold(signals: HoldSignal[], endedAt: Date | null): HoldSummary {
  const ordered = [...signals].sort((a, b) => Date.parse(a.at) - Date.parse(b.at));
  const events: HoldEvent[] = [];
  let open: HoldSignal | null = null;
  for (const s of ordered) {
    if (s.phase === 'start') {
      if (!open) open = s;
      continue;
    }
    if (!open) continue;
    const measured = (Date.parse(s.at) - Date.parse(open.at)) / 1000;
    events.push({
      kind: open.kind,
      started_at: open.at,
      ended_at: s.at,
      duration_secs: round1(s.durationSecs ?? measured),
      recovered: true,
    });
    open = null;
  }
  if (open) {
    const until = endedAt ?? new Date();
    events.push({
      kind: open.kind,
      started_at: open.at,
      ended_at: endedAt ? endedAt.toISOString() : null,
      duration_secs: round1(Math.max(0, (until.getTime() - Date.parse(open.at)) / 1000)),
      recovered: false,
    });
  }
  return {
    detected: events.length > 0,
    events,
    total_secs: round1(events.reduce((sum, e) => sum + e.duration_secs, 0)),
    ended_on_hold: open !== null,
    kinds: [...new Set(events.map((e) => e.kind))],
  };
}
