// What campaigns take from other services' events and refusals: a call event settles only its own account's
// attempt, an older partner view never un-suspends a partner, and a number calls refuses is skipped.
import { CallStatusUpdatedData, DomainEvents, ErrorCode, AppError } from '@vap/messages';
import { waitFor } from '@vap/testing';
import { useIntegrationApp } from '@vap/testing/integration';
import { PartnerSnapshots } from '../partners/partner-snapshots';
import { callee, CampaignsUnderTest } from '../testing/campaigns-integration';

describe('campaigns and the events of calls and partners', () => {
  const it_ = useIntegrationApp(() => CampaignsUnderTest.start());

  afterEach(() => {
    it_.calls.refuse = null;
    expect(it_.app.peers.unanswered).toEqual([]);
  });

  it('another account’s call naming this account’s attempt neither links to nor settles it', async () => {
    const owner = await it_.partner();
    const c = await owner.createCampaign({ concurrency_limit: 1 });
    await owner.addContacts(c.campaign_id, [callee()]);
    await owner.start(c.campaign_id);
    const [own] = await it_.calls.waitForLive(owner.id, 1);
    expect(own.attemptId).toMatch(/^cma_/);
    // The attempt names its call once calls' reply is stored, a moment after calls took the command.
    const before = await waitFor(
      async () => {
        const [contact] = await owner.contacts(c.campaign_id);
        return contact.call_ids.length > 0 ? contact : undefined;
      },
      { timeoutMs: 5000, intervalMs: 10, description: 'the attempt linked to its call' },
    );
    expect(before).toMatchObject({ status: 'dialing', call_ids: [own.callId] });

    // The forger's call names the attempt (client_reference_id is the caller's to choose) and ends unanswered.
    const forger = await it_.partner();
    const forged: CallStatusUpdatedData = {
      ...(await lastEventOf(own.callId)),
      call_id: '0b8f6f5e-7a51-4d7e-9a55-0f0c0e2b7f11',
      status: 'no_answer',
      terminal: true,
      concurrency_released: true,
    };
    const { seq } = await it_.app.publish(DomainEvents.callStatusUpdated, forged, forger.id);
    await it_.app.waitForConsumed('campaigns__call_status_updated', seq);

    const [after] = await owner.contacts(c.campaign_id);
    expect(after).toMatchObject({ status: 'dialing', attempts: 1, call_ids: [own.callId] });
    expect(after.attempt_history).toEqual([
      expect.objectContaining({ call_id: own.callId, call_status: null, ended_at: null }),
    ]);
    await owner.pause(c.campaign_id);
  });

  it('an out-of-order older partner event does not un-suspend: the running campaign stops dialling', async () => {
    const p = await it_.partner({ concurrencyLimit: 1 });
    const campaign = await p.createCampaign({ concurrency_limit: 1 });
    await p.addContacts(
      campaign.campaign_id,
      Array.from({ length: 10 }, () => callee()),
    );
    await p.start(campaign.campaign_id);
    const [first] = await it_.calls.waitForLive(p.id, 1);
    const approved = p.context;

    // The suspension's event, then the older approved view right behind it (two streams, any order).
    await p.update({ status: 'suspended' });
    const stale = await it_.app.publish(
      DomainEvents.partnerUpdated,
      {
        id: approved.id,
        status: approved.status,
        voice_tier: approved.voiceTier,
        concurrency_limit: approved.concurrencyLimit,
        balance_inr: approved.balancePaise / 100,
        price_per_minute_inr: null,
        version: approved.version,
      },
      p.id,
    );
    await it_.app.waitForConsumed('campaigns__partner_updated', stale.seq);
    await it_.calls.end(first, 'completed');

    // The dispatcher keeps the suspended view: the campaign pauses and nothing more is placed.
    const paused = await p.waitForStatus(campaign.campaign_id, 'paused');
    expect(paused.pause_reason).toBe('FORBIDDEN');
    expect(it_.calls.callsByNumber(p.id).size).toBe(1);
    expect(await it_.app.get(PartnerSnapshots).get(p.id)).toMatchObject({ status: 'suspended', version: 2 });
  });

  it('skips contacts calls refuses as do-not-call, without dialling them, with the reason on the contact', async () => {
    const partner = await it_.partner({ concurrencyLimit: 5 });
    const listed = [callee(), callee()];
    const open = [callee(), callee()];
    it_.calls.refuse = (req) =>
      listed.includes(req.to_number) ? new AppError(ErrorCode.DO_NOT_CALL, 'On the do-not-call list') : null;
    const c = await partner.createCampaign({ concurrency_limit: 2 });
    await partner.addContacts(c.campaign_id, [listed[0], open[0], listed[1], open[1]]);
    await partner.start(c.campaign_id);
    const done = await partner.runToCompletion(c.campaign_id);
    expect(done).toMatchObject({ total_contacts: 4, completed_count: 2, failed_count: 0, skipped_count: 2 });
    const byNumber = new Map((await partner.contacts(c.campaign_id)).map((k) => [k.phone_number, k]));
    for (const number of listed) {
      expect(byNumber.get(number)).toMatchObject({
        status: 'skipped',
        skip_reason: 'DO_NOT_CALL',
        attempts: 0,
        call_ids: [],
      });
    }
    for (const number of open)
      expect(byNumber.get(number)).toMatchObject({ status: 'completed', skip_reason: null });
    expect([...it_.calls.callsByNumber(partner.id).keys()].sort()).toEqual([...open].sort());
  });

  /** The fields of a call event as calls fills them for the call (what a forger can copy). */
  async function lastEventOf(callId: string): Promise<CallStatusUpdatedData> {
    const call = it_.calls.placed.find((k) => k.callId === callId)!;
    return {
      call_id: call.callId,
      session_id: null,
      agent_id: call.agentId,
      agent_name: null,
      client_reference_id: call.attemptId,
      direction: 'outbound',
      from_number: call.fromNumber,
      to_number: call.toNumber,
      status: 'ringing',
      disposition: null,
      answered_by: null,
      hangup_cause: null,
      hangup_source: null,
      previous_status: 'pending',
      terminal: false,
      concurrency_released: false,
      account_concurrency: null,
      provider: 'sandbox',
      provider_status: null,
      provider_event: null,
      occurred_at: it_.app.clock.now().toISOString(),
    };
  }
});
