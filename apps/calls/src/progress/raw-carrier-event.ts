import { AnsweredBy, CallDisposition, CallProvider, HangupSource } from '@vap/messages';

/**
 * A verified raw carrier event, ready for CallProgressService.apply. Adapters fill what their carrier
 * sent and leave the rest null; they do not normalize the status (apply does, with one table for all).
 */
export interface RawCarrierEvent {
  provider: CallProvider;
  /** status: call progress; hold: the carrier put the call on or off hold; recording: a recording is ready. */
  kind: 'status' | 'hold' | 'recording';
  /** Unique per distinct callback of a call: a repeated callback has the same key and changes nothing. */
  dedupeKey: string;
  providerStatus: string | null;
  providerEvent: string | null;
  /** The carrier's own ordering of the call's events, when it has one (e.g. SequenceNumber). */
  sequence: number | null;
  /** The carrier says the call has ended (hangup payloads). */
  ended: boolean;
  occurredAt: Date;
  answeredBy?: AnsweredBy | null;
  hangupCause?: string | null;
  hangupSource?: HangupSource | null;
  durationSeconds?: number | null;
  billDurationSeconds?: number | null;
  errorMessage?: string | null;
  /** The call's disposition, when the carrier names one with the hangup. */
  disposition?: CallDisposition | null;
  endCallReason?: string | null;
  hold?: { phase: 'start' | 'end'; kind: string; durationSecs?: number | null };
  /** A recording in the platform's blob storage (storageKey) or at the carrier (url). */
  recording?: { storageKey: string | null; url: string | null; durationSeconds: number | null };
  /** The carrier's id of the call leg this callback names, when it differs from the placement's id. */
  carrierCallId?: string | null;
  /** How this terminal event was checked against the carrier's own record (stored on the call). */
  reconciliation?: 'verified' | 'unreconciled';
}
