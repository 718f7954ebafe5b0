import { Injectable, Logger } from '@nestjs/common';
import { AddressedSubjects, CallStatus } from '@vap/messages';
import { RpcClient } from '@vap/messaging';
import type { AnsweredByChange } from '../progress/call-progress.service';
import { liveSessionAsk } from '../calls/live-session-ask';

/**
 * Whether the voice service must learn of a changed answered_by: it became a machine on a call in progress
 * whose media stream is live (before the stream opened, the voice service reads it when it attaches). A
 * repeated or unchanged verdict, and a human one, change nothing there.
 */
export function relaysToVoice(change: AnsweredByChange | undefined, status: CallStatus): boolean {
  if (!change || status !== 'in_progress' || change.mediaStream !== 'live') return false;
  return change.next === 'machine' && change.previous !== 'machine';
}

/**
 * Tells the voice replica holding a call's media session that a machine answered after the conversation
 * started (voice.session.answered_by, addressed to the call id), so the agent leaves the voicemail message
 * and hangs up. Never fails: the carrier's callback is acknowledged whatever happens here.
 */
@Injectable()
export class LateAnswerRelay {
  private readonly logger = new Logger(LateAnswerRelay.name);

  constructor(private readonly rpc: RpcClient) {}

  async relay(call: { id: string; partnerId: string }, change: AnsweredByChange): Promise<void> {
    try {
      const { acted } = await this.rpc.request(
        AddressedSubjects.voice.answeredBy,
        call.partnerId,
        { callId: call.id, answeredBy: change.next },
        liveSessionAsk(call.id),
      );
      this.logger.log(
        `call ${call.id}: answered by ${change.next} after the stream opened; ` +
          (acted ? 'the agent leaves the voicemail message' : 'the conversation goes on'),
      );
    } catch (err) {
      this.logger.warn(
        `call ${call.id}: no voice replica took the late ${change.next} answer: ${(err as Error).message}`,
      );
    }
  }
}
