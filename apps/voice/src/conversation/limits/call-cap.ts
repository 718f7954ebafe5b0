// max_call_duration_secs: the wrap-up line, the farewell and the hang-up, timed so the call lasts the cap and is
// never billed past it.

import { Phrases } from '../phrases';
import type { ConversationPort } from '../conversation-port';

/** The wrap-up line comes this long before the cap. */
export const WRAP_UP_LEAD_SECS = 30;
/** The wrap-up and farewell are synthesised this long before the wrap-up is due. */
export const CAP_PREPARE_AHEAD_SECS = 10;
/**
 * The farewell starts this long before the cap. Offline voices take about 3.7 s to say it; the rest is room for
 * synthesis and the carrier's marks on a busy replica.
 */
export const CAP_FAREWELL_LEAD_MS = 6000;
/**
 * The hang-up goes ahead this long before the cap even if the farewell is still playing, so the carrier's hang-up
 * lands inside the cap and the call is never billed past it.
 */
export const CAP_HANGUP_MARGIN_MS = 250;

/** Sets the cap's timers when the call goes live (none without a cap); they die with the call's clock. */
export function watchCallCap(port: ConversationPort): void {
  port.events.on('live', () => {
    const cap = port.agent.maxCallDurationSecs;
    if (cap !== null && cap > 0) armCallCap(port, cap);
  });
}

function armCallCap(port: ConversationPort, cap: number): void {
  const { clock, voice } = port;
  // The wrap-up line (none for a cap of 30 s or less) and the farewell are synthesised ahead of their moments,
  // so the provider's latency then (a busy replica, a slow TTS) neither delays the wrap-up nor eats into the
  // seconds the farewell has to play before the cap.
  const wrapsUp = cap > WRAP_UP_LEAD_SECS;
  clock.after(Math.max(0, cap - WRAP_UP_LEAD_SECS - CAP_PREPARE_AHEAD_SECS) * 1000, () => {
    if (port.ending) return;
    if (wrapsUp) voice.prepare(Phrases.wrapUp);
    voice.prepare(Phrases.maxDurationFarewell);
  });
  if (wrapsUp) {
    clock.after((cap - WRAP_UP_LEAD_SECS) * 1000, () => {
      if (!port.ending) port.say(Phrases.wrapUp, { notice: true });
    });
  }
  // The farewell starts early enough to end by the cap: the call lasts max_call_duration_secs, not the cap plus
  // a goodbye. A farewell still playing (slow synthesis) is cut short of the cap rather than billed past it.
  const lead = Math.min(CAP_FAREWELL_LEAD_MS, cap * 500);
  clock.after(cap * 1000 - lead, () => {
    void port.endWith('max_call_duration_reached', Phrases.maxDurationFarewell, {
      interrupt: true,
      limitMs: Math.max(lead - CAP_HANGUP_MARGIN_MS, lead / 2),
    });
  });
}
