/**
 * The sandbox carrier's raw callback, form-encoded like carrier_b's: one POST per event to the call's
 * status callback URL. Fields:
 * CallSid, CallStatus (initiated | ringing | in-progress | completed | busy | no-answer | failed |
 * canceled: the platform hung up before the answer),
 * EventType (call-progress | hold-start | hold-end), SequenceNumber (orders the call's events; a repeat
 * is a duplicate), Timestamp (ISO 8601), AnsweredBy (human | machine), CallDuration (seconds),
 * HangupCause, HangupSource, ErrorMessage, and what the voice pipeline decided at hangup: Disposition,
 * EndCallReason, RecordingKey, RecordingDuration; on hold events HoldKind and HoldDuration (seconds).
 */
export interface SandboxCallbackFields {
  CallSid: string;
  CallStatus?: string;
  EventType: 'call-progress' | 'hold-start' | 'hold-end';
  SequenceNumber: string;
  Timestamp: string;
  AnsweredBy?: 'human' | 'machine';
  CallDuration?: string;
  HangupCause?: string;
  HangupSource?: string;
  ErrorMessage?: string;
  Disposition?: string;
  EndCallReason?: string;
  RecordingKey?: string;
  RecordingDuration?: string;
  HoldKind?: string;
  HoldDuration?: string;
}

export const SANDBOX_CALLBACK_EVENT = 'status';
