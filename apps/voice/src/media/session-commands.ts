import { Injectable } from '@nestjs/common';
import {
  AddressedSubjects,
  ANSWERED_BY_VALUES,
  AppError,
  VoiceAnsweredByReply,
  VoiceAnsweredByRequest,
  VoiceSessionEndReply,
  VoiceSessionEndRequest,
  VoiceSessionTerminateReply,
  VoiceSessionTerminateRequest,
  TRANSFER_OUTCOMES,
  VoiceTransferOutcomeReply,
  VoiceTransferOutcomeRequest,
} from '@vap/messages';
import { AddressedCommandServer } from '@vap/messaging';
import type { MediaSession } from './media-session';

/** end_call_reason values are snake_case words, as the calls service takes them on calls.voice.hangup. */
const REASON_PATTERN = /^[a-z][a-z0-9_]{0,63}$/;

/** What the commands need of a live session. */
export type CommandableSession = Pick<
  MediaSession,
  'callId' | 'partnerId' | 'end' | 'terminate' | 'answeredBy' | 'finished' | 'transferOutcome'
>;

/**
 * The addressed commands for the calls this replica holds: each live session answers the commands addressed
 * to its call id while it runs, so only the replica carrying the call's media acts on them, and a call no
 * replica holds gets no responders (the calls service then acts through the carrier, or lets it be).
 * - voice.session.end: the agent's farewell, then the hang-up through calls.voice.hangup;
 * - voice.session.terminate: the call has ended, the session stops at once (no farewell, no hang-up);
 * - voice.session.answered_by: machine detection answered after the stream opened (a machine answer leaves
 *   the voicemail message and hangs up);
 * - voice.session.transfer_outcome: how the call's warm transfer ended (the agent lets go of a bridged caller, or
 *   takes the caller off hold and says so).
 */
@Injectable()
export class SessionCommands {
  constructor(private readonly server: AddressedCommandServer) {}

  /** Answers for `session` until it has finished. */
  serve(session: CommandableSession): void {
    const servings = [
      this.server.serve(AddressedSubjects.voice.sessionEnd, session.callId, (data, request) =>
        endSession(session, data, request.partnerId),
      ),
      this.server.serve(AddressedSubjects.voice.sessionTerminate, session.callId, (data, request) =>
        terminateSession(session, data, request.partnerId),
      ),
      this.server.serve(AddressedSubjects.voice.answeredBy, session.callId, (data, request) =>
        applyAnsweredBy(session, data, request.partnerId),
      ),
      this.server.serve(AddressedSubjects.voice.transferOutcome, session.callId, (data, request) =>
        applyTransferOutcome(session, data, request.partnerId),
      ),
    ];
    void session.finished.finally(() => Promise.all(servings.map((serving) => serving.close())));
  }
}

/** The address is the call id; a command naming another call, or another partner's, is not for it. */
function assertHeld(session: CommandableSession, callId: string, partnerId: string | null): void {
  if (callId !== session.callId || (partnerId !== null && partnerId !== session.partnerId)) {
    throw AppError.notFound('Live call');
  }
}

/** Ends the session with the agent's farewell; the hang-up follows through calls.voice.hangup. */
function endSession(
  session: CommandableSession,
  request: VoiceSessionEndRequest,
  partnerId: string | null,
): VoiceSessionEndReply {
  assertHeld(session, request.callId, partnerId);
  if (typeof request.reason !== 'string' || !REASON_PATTERN.test(request.reason)) {
    throw AppError.validation([{ field: 'reason', message: 'reason must be a snake_case word' }]);
  }
  return { accepted: session.end(request.reason) };
}

/** Stops the session of a call that has ended: no farewell, no hang-up, the socket closed now. */
function terminateSession(
  session: CommandableSession,
  request: VoiceSessionTerminateRequest,
  partnerId: string | null,
): VoiceSessionTerminateReply {
  assertHeld(session, request.callId, partnerId);
  return { terminated: session.terminate() };
}

/** Hands the late answer to the session; `acted` when it leaves the voicemail message and hangs up. */
function applyAnsweredBy(
  session: CommandableSession,
  request: VoiceAnsweredByRequest,
  partnerId: string | null,
): VoiceAnsweredByReply {
  assertHeld(session, request.callId, partnerId);
  if (!(ANSWERED_BY_VALUES as readonly unknown[]).includes(request.answeredBy)) {
    throw AppError.validation([
      { field: 'answeredBy', message: `answeredBy must be one of ${ANSWERED_BY_VALUES.join(', ')}` },
    ]);
  }
  return { acted: session.answeredBy(request.answeredBy) };
}

/** Hands the warm transfer's outcome to the session; `accepted` when its agent was waiting for it. */
function applyTransferOutcome(
  session: CommandableSession,
  request: VoiceTransferOutcomeRequest,
  partnerId: string | null,
): VoiceTransferOutcomeReply {
  assertHeld(session, request.callId, partnerId);
  if (!(TRANSFER_OUTCOMES as readonly unknown[]).includes(request.outcome)) {
    throw AppError.validation([
      { field: 'outcome', message: `outcome must be one of ${TRANSFER_OUTCOMES.join(', ')}` },
    ]);
  }
  return { accepted: session.transferOutcome(request.outcome) };
}
