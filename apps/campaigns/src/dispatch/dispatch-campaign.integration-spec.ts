// The dispatcher as partners see it: campaigns started through the campaigns commands, calls placed with the fake
// calls service and ended by the call events calls publishes; retry delays and cooldowns run on the manual clock.
import { ErrorCode } from '@vap/messages';
import { waitFor } from '@vap/testing';
import { useIntegrationApp } from '@vap/testing/integration';
import { PartnerSnapshots } from '../partners/partner-snapshots';
import { callee, CallOutcome, CampaignsUnderTest } from '../testing/campaigns-integration';

const MINUTE = 60_000;

describe('campaign dispatcher: concurrency, retries, pause and resume', () => {
  const it_ = useIntegrationApp(() => CampaignsUnderTest.start());

  afterEach(() => {
    expect(it_.app.peers.unanswered).toEqual([]);
  });

  it('keeps concurrency_limit calls in flight, never more, and refills slots as calls release them', async () => {
    const partner = await it_.partner({ concurrencyLimit: 5 });
    const c = await partner.createCampaign({ concurrency_limit: 3 });
    const numbers = Array.from({ length: 12 }, () => callee());
    await partner.addContacts(c.campaign_id, numbers);
    await partner.start(c.campaign_id);

    // One call ends at a time: each release refills its slot, and no more than 3 are ever placed at once.
    const first = await it_.calls.waitForLive(partner.id, 3);
    expect(first).toHaveLength(3);
    await it_.calls.end(first[0], 'completed');
    const refilled = await it_.calls.waitForLive(partner.id, 3);
    expect(refilled.map((k) => k.callId)).not.toContain(first[0].callId);

    const done = await partner.runToCompletion(c.campaign_id);
    expect(done).toMatchObject({
      total_contacts: 12,
      completed_count: 12,
      failed_count: 0,
      skipped_count: 0,
    });
    expect(it_.calls.peakInFlight(partner.id)).toBe(3);
    // Every contact was dialled exactly once.
    const byNumber = it_.calls.callsByNumber(partner.id);
    expect([...byNumber.keys()].sort()).toEqual([...numbers].sort());
    for (const calls of byNumber.values()) expect(calls).toHaveLength(1);
  });

  it('clamps the campaign to the account’s concurrency limit, across the partner’s campaigns', async () => {
    const partner = await it_.partner({ concurrencyLimit: 2 });
    const a = await partner.createCampaign({ concurrency_limit: 10 });
    const b = await partner.createCampaign({ concurrency_limit: 10 });
    await partner.addContacts(
      a.campaign_id,
      Array.from({ length: 4 }, () => callee()),
    );
    await partner.addContacts(
      b.campaign_id,
      Array.from({ length: 4 }, () => callee()),
    );
    await partner.start(a.campaign_id);
    await partner.start(b.campaign_id);
    await it_.calls.waitForLive(partner.id, 2);
    await Promise.all([partner.runToCompletion(a.campaign_id), partner.runToCompletion(b.campaign_id)]);
    expect(it_.calls.peakInFlight(partner.id)).toBe(2);
    expect(it_.calls.callsByNumber(partner.id).size).toBe(8);
    // The dispatcher never asked past the account's limit: calls refused no start as over it.
    expect(it_.calls.refusals).not.toContainEqual(
      expect.objectContaining({ code: ErrorCode.LIMIT_REACHED, partnerId: partner.id }),
    );
  });

  it('retries busy, no_answer and failed up to retry_count after the delays and the cooldown', async () => {
    const partner = await it_.partner({ concurrencyLimit: 5 });
    // Retry 1 after max(2, cooldown 3) = 3 minutes, retry 2 after max(4, 3) = 4 minutes.
    const c = await partner.createCampaign({
      concurrency_limit: 5,
      retry_concurrency: 2,
      retry_count: 2,
      retry_delays_minutes: [2, 4],
      cooldown_minutes: 3,
    });
    const numbers = [callee(), callee(), callee(), callee()];
    const outcomes: CallOutcome[] = ['busy', 'no_answer', 'failed', 'completed'];
    const outcomeOf = (to: string) => outcomes[numbers.indexOf(to)];
    await partner.addContacts(c.campaign_id, numbers);
    await partner.start(c.campaign_id);

    // Ends `count` calls of the round as they are placed (retry_concurrency lets two retries out at a time).
    const endRound = async (count: number) => {
      for (let ended = 0; ended < count;) {
        for (const call of await it_.calls.waitForLive(partner.id, 1)) {
          await it_.calls.end(call, outcomeOf(call.toNumber));
          ended += 1;
        }
      }
    };
    const waitingRetries = () =>
      partner
        .contacts(c.campaign_id)
        .then((ks) => (ks.filter((k) => k.status === 'retry_wait').length === 3 ? ks : undefined));
    await endRound(4);
    await waitForTruthy(waitingRetries);
    // Nothing is dialled before the clock reaches the delay.
    expect(it_.calls.live(partner.id)).toHaveLength(0);
    it_.app.clock.advance(3 * MINUTE);
    await endRound(3);
    await waitForTruthy(waitingRetries);
    it_.app.clock.advance(4 * MINUTE);
    await endRound(3);
    const done = await partner.waitForStatus(c.campaign_id, 'completed');
    expect(done).toMatchObject({ total_contacts: 4, completed_count: 1, failed_count: 3, skipped_count: 0 });

    const contacts = await partner.contacts(c.campaign_id);
    expect(contacts.map((k) => [k.status, k.last_call_status, k.attempts])).toEqual([
      ['failed', 'busy', 3],
      ['failed', 'no_answer', 3],
      ['failed', 'failed', 3],
      ['completed', 'completed', 1],
    ]);
    for (const k of contacts.slice(0, 3)) {
      expect(k.call_ids).toHaveLength(3);
      const history = k.attempt_history;
      expect(history.map((h) => h.attempt)).toEqual([1, 2, 3]);
      const gap = (i: number) => Date.parse(history[i].started_at!) - Date.parse(history[i - 1].ended_at!);
      // Exactly when due: the clock moved only by the delays, so an earlier dial would show a shorter gap.
      expect(gap(1)).toBe(3 * MINUTE);
      expect(gap(2)).toBe(4 * MINUTE);
    }
    expect(it_.calls.peakInFlight(partner.id)).toBeLessThanOrEqual(5);
  });

  it('pauses: calls in flight finish, no new calls start; resume continues where it stopped', async () => {
    const partner = await it_.partner({ concurrencyLimit: 5 });
    const c = await partner.createCampaign({ concurrency_limit: 2 });
    const numbers = Array.from({ length: 8 }, () => callee());
    await partner.addContacts(c.campaign_id, numbers);
    await partner.start(c.campaign_id);
    const inFlight = await it_.calls.waitForLive(partner.id, 2);
    expect((await partner.pause(c.campaign_id)).status).toBe('paused');

    // The calls in flight end and settle their contacts; their released slots dial nobody while paused.
    for (const call of inFlight) await it_.calls.end(call, 'completed');
    const settled = await waitForTruthy(async () => {
      const k = await partner.campaign(c.campaign_id);
      return k.completed_count === 2 ? k : undefined;
    });
    expect(settled.status).toBe('paused');
    const contacts = await partner.contacts(c.campaign_id);
    expect(contacts.filter((k) => k.status === 'dialing')).toEqual([]);
    expect(contacts.filter((k) => k.status === 'pending')).toHaveLength(6);
    expect(it_.calls.callsByNumber(partner.id).size).toBe(2);

    expect((await partner.resume(c.campaign_id)).status).toBe('running');
    const done = await partner.runToCompletion(c.campaign_id);
    expect(done.completed_count).toBe(8);
    const byNumber = it_.calls.callsByNumber(partner.id);
    expect(byNumber.size).toBe(8);
    for (const calls of byNumber.values()) expect(calls).toHaveLength(1);
    expect(it_.calls.peakInFlight(partner.id)).toBe(2);
  });

  it('pauses by itself when a caller ID disappears mid-campaign, with the reason', async () => {
    const partner = await it_.partner({ concurrencyLimit: 5 });
    const numberId = it_.calls.addNumber(partner.id, callee());
    const c = await partner.createCampaign({ concurrency_limit: 1, phone_number_ids: [numberId] });
    await partner.addContacts(
      c.campaign_id,
      Array.from({ length: 6 }, () => callee()),
    );
    await partner.start(c.campaign_id);
    const [call] = await it_.calls.waitForLive(partner.id, 1);
    it_.calls.removeNumber(numberId);
    await it_.calls.end(call, 'completed');
    const paused = await partner.waitForStatus(c.campaign_id, 'paused');
    expect(paused.pause_reason).toBe('CALLER_ID_INACTIVE');
    const contacts = await partner.contacts(c.campaign_id);
    expect(contacts.filter((k) => k.status === 'pending')).toHaveLength(5);
    await expect(partner.resume(c.campaign_id)).rejects.toMatchObject({
      code: 'CALLER_ID_INACTIVE',
      status: 409,
    });
  });

  it('pauses by itself when the balance runs out, and resumes once it is topped up', async () => {
    const partner = await it_.partner({ concurrencyLimit: 5, balancePaise: 10_000 });
    const c = await partner.createCampaign({ concurrency_limit: 1 });
    await partner.addContacts(
      c.campaign_id,
      Array.from({ length: 5 }, () => callee()),
    );
    await partner.start(c.campaign_id);
    const [call] = await it_.calls.waitForLive(partner.id, 1);
    // The gateway's partner.updated event reaches the campaigns service; the next dial is refused.
    await partner.update({ balancePaise: 100 });
    await waitForTruthy(async () => {
      // The snapshot the dispatcher dials with has the new balance once the event was consumed.
      const snapshot = await it_.app.get(PartnerSnapshots).get(partner.id);
      return snapshot?.balancePaise === 100;
    });
    await it_.calls.end(call, 'completed');
    const paused = await partner.waitForStatus(c.campaign_id, 'paused');
    expect(paused.pause_reason).toBe('INSUFFICIENT_BALANCE');
    expect(paused.completed_count).toBe(1);
    await expect(partner.resume(c.campaign_id)).rejects.toMatchObject({
      code: 'INSUFFICIENT_BALANCE',
      status: 403,
    });
    await partner.update({ balancePaise: 10_000 });
    const resumed = await partner.resume(c.campaign_id);
    expect(resumed.status).toBe('running');
    expect(resumed.pause_reason).toBeNull();
    const done = await partner.runToCompletion(c.campaign_id);
    expect(done.completed_count).toBe(5);
    const byNumber = it_.calls.callsByNumber(partner.id);
    expect(byNumber.size).toBe(5);
    for (const calls of byNumber.values()) expect(calls).toHaveLength(1);
  });

  it('pauses by itself when the agent is deleted or the account suspended', async () => {
    const partner = await it_.partner({ concurrencyLimit: 5 });
    const c = await partner.createCampaign({ concurrency_limit: 1 });
    await partner.addContacts(
      c.campaign_id,
      Array.from({ length: 5 }, () => callee()),
    );
    await partner.start(c.campaign_id);
    const [call] = await it_.calls.waitForLive(partner.id, 1);
    it_.agents.delete(partner.agentId);
    await it_.calls.end(call, 'completed');
    const paused = await partner.waitForStatus(c.campaign_id, 'paused');
    expect(paused.pause_reason).toBe('AGENT_NOT_FOUND');

    const other = await it_.partner({ concurrencyLimit: 5 });
    const d = await other.createCampaign({ concurrency_limit: 1 });
    await other.addContacts(
      d.campaign_id,
      Array.from({ length: 5 }, () => callee()),
    );
    await other.start(d.campaign_id);
    const [otherCall] = await it_.calls.waitForLive(other.id, 1);
    await other.update({ status: 'suspended' });
    await waitForTruthy(async () => {
      const snapshot = await it_.app.get(PartnerSnapshots).get(other.id);
      return snapshot?.status === 'suspended';
    });
    await it_.calls.end(otherCall, 'completed');
    // The pause is announced in the campaign's status event, with the reason on the campaign.
    await it_.app.waitForEvent<{ campaign_id: string; status: string }>(
      'events.campaign.status_updated',
      (e) => e.data.campaign_id === d.campaign_id && e.data.status === 'paused',
    );
    expect((await other.campaign(d.campaign_id)).pause_reason).toBe('FORBIDDEN');
  });

  it('waits while the account’s own calls hold every slot, without counting refused dials as attempts', async () => {
    const partner = await it_.partner({ concurrencyLimit: 1 });
    it_.calls.holdSlots(partner.id, 1);
    const c = await partner.createCampaign({ concurrency_limit: 1 });
    await partner.addContacts(c.campaign_id, [callee(), callee()]);
    await partner.start(c.campaign_id);
    // The dispatcher asks, calls refuses with LIMIT_REACHED, and the contact waits without an attempt.
    await waitForTruthy(() =>
      it_.calls.refusals.some((r) => r.code === ErrorCode.LIMIT_REACHED && r.partnerId === partner.id)
        ? true
        : undefined,
    );
    expect(it_.calls.live(partner.id)).toEqual([]);
    // A refused contact waits a second of the campaign clock before it is asked again. A dial refused just before
    // the slots freed stores its second after any one move of the clock, so the clock goes on a second at a time,
    // as it would, until both contacts have been called.
    it_.calls.holdSlots(partner.id, 0);
    const done = await partner.runToCompletion(c.campaign_id, { clockStepMs: 1000 });
    expect(done.completed_count).toBe(2);
    const contacts = await partner.contacts(c.campaign_id);
    expect(contacts.map((k) => [k.attempts, k.call_ids.length])).toEqual([
      [1, 1],
      [1, 1],
    ]);
    expect(it_.calls.peakInFlight(partner.id)).toBe(1);
  });
});

/** Waits for `check` to give a value (no fixed sleeps: the dispatcher's work is observed as it lands). */
const waitForTruthy = <T>(check: () => T | Promise<T>) =>
  waitFor(check, { timeoutMs: 10_000, intervalMs: 20 });
