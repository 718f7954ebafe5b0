// Importing a phone number in the running calls module: the agents service is a fake peer that knows the
// partner's own agents. The number is stored on the partner's connection and its import published; a number
// on no connection of the partner, twice on the account or with an invalid body is refused.
import { randomUUID } from 'node:crypto';
import { DataSource } from 'typeorm';
import { PhoneNumberDto } from '@vap/api';
import { AppError, DomainEvents, ErrorCode } from '@vap/messages';
import { useIntegrationApp } from '@vap/testing/integration';
import { startCalls } from '../../../../testing/calls-integration';
import { saveConnection } from '../../../../testing/call-rows';

describe('import a phone number', () => {
  let dataSource: DataSource;
  const ownAgents = new Map<string, string>();

  const calls = useIntegrationApp(() => startCalls());

  beforeAll(() => {
    dataSource = calls.get(DataSource);
    calls.peers.answer('agents.agent.get', ({ id }, { partnerId }) => {
      if (ownAgents.get(id) !== partnerId) throw AppError.notFound('Agent');
      return { id } as never;
    });
  });

  const refusal = (promise: Promise<unknown>) =>
    promise.then(
      () => null,
      (err: AppError) => err,
    );

  it('stores the number on the named connection with its agent, and publishes it', async () => {
    const partnerId = randomUUID();
    const connectionId = await saveConnection(dataSource, partnerId, 'carrier_b');
    const agentId = randomUUID();
    ownAgents.set(agentId, partnerId);

    const number = await calls.send('calls.phone_number.import', partnerId, {
      number: '+919812340001',
      connection_id: connectionId,
      label: 'Support line',
      agent_id: agentId,
      application_id: 'AP1',
    });

    expect(number).toMatchObject({
      id: expect.stringMatching(/^pn_/),
      number: '+919812340001',
      provider: 'carrier_b',
      connection_id: connectionId,
      label: 'Support line',
      agent_id: agentId,
      application_id: 'AP1',
      is_default: false,
      status: 'active',
    });
    const rows = (await dataSource.query(
      `SELECT id, number, connection_id, provider, agent_id, application_id, is_default
         FROM calls.phone_numbers WHERE partner_id = $1`,
      [partnerId],
    )) as Record<string, unknown>[];
    expect(rows).toEqual([
      {
        id: number.id,
        number: '+919812340001',
        connection_id: connectionId,
        provider: 'carrier_b',
        agent_id: agentId,
        application_id: 'AP1',
        is_default: false,
      },
    ]);
    const published = await calls.waitForEvent<PhoneNumberDto>(
      DomainEvents.phoneNumberImported,
      (e) => e.data.id === number.id,
    );
    expect(published.data).toEqual(number);
  });

  it("finds the provider's only active connection when none is named", async () => {
    const partnerId = randomUUID();
    const connectionId = await saveConnection(dataSource, partnerId, 'carrier_b');
    const number = await calls.send('calls.phone_number.import', partnerId, {
      number: '+919812340002',
      provider: 'carrier_b',
    });
    expect(number).toMatchObject({ connection_id: connectionId, provider: 'carrier_b', agent_id: null });
  });

  it('refuses a provider with no connection, or several, and one the connection is not on', async () => {
    const partnerId = randomUUID();
    const none = await refusal(
      calls.send('calls.phone_number.import', partnerId, { number: '+919812340003', provider: 'carrier_b' }),
    );
    expect(none).toMatchObject({ code: ErrorCode.VALIDATION_ERROR });
    expect(none?.details).toEqual([expect.objectContaining({ field: 'provider' })]);

    // Only reseller-link connections may be several of one provider on an account.
    const connectionId = await saveConnection(dataSource, partnerId, 'reseller-link');
    await saveConnection(dataSource, partnerId, 'reseller-link');
    const several = await refusal(
      calls.send('calls.phone_number.import', partnerId, {
        number: '+919812340003',
        provider: 'reseller-link',
      }),
    );
    expect(several?.details).toEqual([expect.objectContaining({ field: 'connection_id' })]);

    const mismatch = await refusal(
      calls.send('calls.phone_number.import', partnerId, {
        number: '+919812340003',
        provider: 'sandbox',
        connection_id: connectionId,
      }),
    );
    expect(mismatch).toMatchObject({ code: ErrorCode.VALIDATION_ERROR });
    expect(mismatch?.details).toEqual([expect.objectContaining({ field: 'provider' })]);
  });

  it("refuses another partner's connection and agent (404), and a number already on the account (409)", async () => {
    const partnerId = randomUUID();
    const connectionId = await saveConnection(dataSource, partnerId, 'carrier_b');
    const othersConnection = await saveConnection(dataSource, randomUUID(), 'carrier_b');
    const othersAgent = randomUUID();
    ownAgents.set(othersAgent, randomUUID());

    await expect(
      refusal(
        calls.send('calls.phone_number.import', partnerId, {
          number: '+919812340004',
          connection_id: othersConnection,
        }),
      ),
    ).resolves.toMatchObject({ code: ErrorCode.NOT_FOUND, message: 'Connection not found' });
    await expect(
      refusal(
        calls.send('calls.phone_number.import', partnerId, {
          number: '+919812340004',
          connection_id: connectionId,
          agent_id: othersAgent,
        }),
      ),
    ).resolves.toMatchObject({ code: ErrorCode.NOT_FOUND });

    await calls.send('calls.phone_number.import', partnerId, {
      number: '+919812340004',
      connection_id: connectionId,
    });
    await expect(
      refusal(
        calls.send('calls.phone_number.import', partnerId, {
          number: '+919812340004',
          connection_id: connectionId,
        }),
      ),
    ).resolves.toMatchObject({ code: ErrorCode.CONFLICT });
    const [{ count }] = (await dataSource.query(
      `SELECT count(*)::int AS count FROM calls.phone_numbers WHERE partner_id = $1`,
      [partnerId],
    )) as { count: number }[];
    expect(count).toBe(1);
  });

  it('refuses a number that is not E.164 before anything is stored', async () => {
    const partnerId = randomUUID();
    const err = await refusal(
      calls.send('calls.phone_number.import', partnerId, { number: '12345', provider: 'sandbox' }),
    );
    expect(err).toMatchObject({
      code: ErrorCode.VALIDATION_ERROR,
      message: 'Invalid request: number must be an E.164 number such as +919876543210',
    });
    const rows = (await dataSource.query(`SELECT 1 FROM calls.phone_numbers WHERE partner_id = $1`, [
      partnerId,
    ])) as unknown[];
    expect(rows).toEqual([]);
  });
});
