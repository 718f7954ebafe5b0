// The contact policy's decisions in the running calls module: the dials a rule stopped, newest first, filtered
// by number, rule, outcome, source and time; another partner's decisions never appear.
import { randomUUID } from 'node:crypto';
import { DataSource } from 'typeorm';
import { ErrorCode } from '@vap/messages';
import { useIntegrationApp } from '@vap/testing/integration';
import { startCalls } from '../../../../testing/calls-integration';
import { PolicyDecision } from '../../entities/policy-decision.entity';

describe('list policy decisions', () => {
  let dataSource: DataSource;

  const calls = useIntegrationApp(() => startCalls());

  beforeAll(() => {
    dataSource = calls.get(DataSource);
  });

  /** A decision the contact policy stored at `createdAt`. */
  async function saveDecision(
    partnerId: string,
    createdAt: string,
    fields: Partial<PolicyDecision>,
  ): Promise<string> {
    const id = randomUUID();
    await dataSource.getRepository(PolicyDecision).insert({
      id,
      partnerId,
      number: '+919812470001',
      rule: 'do_not_call',
      outcome: 'refused',
      source: 'single_call',
      campaignId: null,
      contactId: null,
      doNotCallId: null,
      retryAt: null,
      detail: 'listed',
      createdAt: new Date(createdAt),
      ...fields,
    });
    return id;
  }

  it("answers the partner's decisions newest first, filtered, and no other partner's", async () => {
    const partnerId = randomUUID();
    const refused = await saveDecision(partnerId, '2027-01-01T10:00:00Z', {});
    const deferred = await saveDecision(partnerId, '2027-01-02T10:00:00Z', {
      rule: 'calling_window',
      outcome: 'deferred',
      source: 'campaign',
      campaignId: 'cmp_1',
      contactId: 'ct_1',
      retryAt: new Date('2027-01-03T03:30:00Z'),
      detail: 'outside the window',
    });
    const other = await saveDecision(partnerId, '2027-01-03T10:00:00Z', { number: '+919812470002' });
    await saveDecision(randomUUID(), '2027-01-02T12:00:00Z', {});

    const all = await calls.send('calls.policy_decision.list', partnerId, {});
    expect(all.decisions.map((d) => d.id)).toEqual([other, deferred, refused]);
    expect(all.decisions[1]).toEqual({
      id: deferred,
      number: '+919812470001',
      rule: 'calling_window',
      outcome: 'deferred',
      source: 'campaign',
      campaign_id: 'cmp_1',
      contact_id: 'ct_1',
      do_not_call_id: null,
      retry_at: '2027-01-03T03:30:00.000Z',
      detail: 'outside the window',
      created_at: '2027-01-02T10:00:00.000Z',
    });

    const filtered = async (query: object) =>
      (await calls.send('calls.policy_decision.list', partnerId, query)).decisions.map((d) => d.id);
    expect(await filtered({ number: '+919812470001' })).toEqual([deferred, refused]);
    expect(await filtered({ rule: 'calling_window' })).toEqual([deferred]);
    expect(await filtered({ outcome: 'refused', source: 'single_call' })).toEqual([other, refused]);
    expect(await filtered({ campaign_id: 'cmp_1' })).toEqual([deferred]);
    expect(
      await filtered({ created_after: '2027-01-02T00:00:00Z', created_before: '2027-01-03T00:00:00Z' }),
    ).toEqual([deferred]);
  });

  it('refuses an unknown rule and a time that is not ISO 8601', async () => {
    const partnerId = randomUUID();
    await expect(
      calls.send('calls.policy_decision.list', partnerId, { rule: 'nope' as never }),
    ).rejects.toMatchObject({ code: ErrorCode.VALIDATION_ERROR });
    await expect(
      calls.send('calls.policy_decision.list', partnerId, { created_after: 'yesterday' }),
    ).rejects.toMatchObject({
      code: ErrorCode.VALIDATION_ERROR,
      message: 'Invalid request: created_after must be an ISO 8601 date-time',
    });
  });
});
