import { Injectable, Logger } from '@nestjs/common';
import { EntityManager } from 'typeorm';
import { CallStatusUpdatedData, DomainEvent, DomainEvents } from '@vap/messages';
import { OnDomainEvent } from '@vap/messaging';
import { AttemptsRepository } from './attempts.repository';
import { ContactOutcomes } from './contact-outcomes';

/** Campaign calls carry their attempt id as client_reference_id. */
export const ATTEMPT_REF_PREFIX = 'cma_';

/** Only campaign calls' events concern campaigns; the rest are acked without a transaction. */
function isCampaignCall(event: DomainEvent): boolean {
  const ref = (event.data as Partial<CallStatusUpdatedData> | null)?.client_reference_id;
  return typeof ref === 'string' && ref.startsWith(ATTEMPT_REF_PREFIX) && !!event.partnerId;
}

/**
 * Follows campaign calls through call.status.updated: links the call to its attempt (the event can come
 * before the start command's reply), and when the call releases concurrency, settles the contact and frees
 * the slot at once, without waiting for session.completed.
 */
@Injectable()
export class CallStatusConsumer {
  private readonly logger = new Logger(CallStatusConsumer.name);

  constructor(
    private readonly attempts: AttemptsRepository,
    private readonly outcomes: ContactOutcomes,
  ) {}

  // Events of different calls are independent; two of one call are serialised by the attempt's row lock,
  // and one arriving after the terminal one finds the attempt ended and changes nothing.
  @OnDomainEvent(DomainEvents.callStatusUpdated, {
    consumer: 'campaigns__call_status_updated',
    concurrency: 8,
    accepts: isCampaignCall,
  })
  async onStatus(event: DomainEvent<CallStatusUpdatedData>, em: EntityManager): Promise<void> {
    const data = event.data;
    const ref = data.client_reference_id;
    if (!ref || !ref.startsWith(ATTEMPT_REF_PREFIX) || !event.partnerId) return;
    const attempt = await this.attempts.lockOfPartner(em, event.partnerId, ref);
    if (!attempt) return;
    if (attempt.status === 'abandoned') {
      this.logger.error(
        `call ${data.call_id} exists for attempt ${attempt.id}, which was released as never placed`,
      );
      return;
    }
    if (!attempt.call_id) await this.attempts.linkCall(attempt.id, data.call_id, em);
    if (!data.concurrency_released || attempt.status === 'ended') return;
    await this.outcomes.settle(em, attempt, data.status);
  }
}
