// Updating a phone number in the running calls module: the agents service is a fake peer that knows the
// partner's own agents. The label and inbound agent are stored and the update published; another partner's
// number or agent is 404 and leaves the row as it was.
import { randomUUID } from 'node:crypto';
import { DataSource } from 'typeorm';
import { PhoneNumberDto } from '@vap/api';
import { AppError, DomainEvents, ErrorCode } from '@vap/messages';
import { useIntegrationApp } from '@vap/testing/integration';
import { startCalls } from '../../../../testing/calls-integration';
import { saveConnection } from '../../../../testing/call-rows';

describe('update a phone number', () => {
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

  async function imported(partnerId: string, number: string): Promise<PhoneNumberDto> {
    const connectionId = await saveConnection(dataSource, partnerId, 'carrier_b');
    return calls.send('calls.phone_number.import', partnerId, {
      number,
      connection_id: connectionId,
      label: 'Old',
    });
  }

  const rowOf = async (id: string) =>
    (
      (await dataSource.query(`SELECT label, agent_id FROM calls.phone_numbers WHERE id = $1`, [id])) as {
        label: string | null;
        agent_id: string | null;
      }[]
    )[0];

  const refusal = (promise: Promise<unknown>) =>
    promise.then(
      () => null,
      (err: AppError) => err,
    );

  it('stores the new label and agent and publishes the update; null clears them', async () => {
    const partnerId = randomUUID();
    const number = await imported(partnerId, '+919812370001');
    const agentId = randomUUID();
    ownAgents.set(agentId, partnerId);

    const updated = await calls.send('calls.phone_number.update', partnerId, {
      id: number.id,
      changes: { label: 'Sales', agent_id: agentId },
    });

    expect(updated).toMatchObject({ id: number.id, label: 'Sales', agent_id: agentId });
    expect(await rowOf(number.id)).toEqual({ label: 'Sales', agent_id: agentId });
    const published = await calls.waitForEvent<PhoneNumberDto>(
      DomainEvents.phoneNumberUpdated,
      (e) => e.data.id === number.id,
    );
    expect(published.data).toEqual(updated);

    await calls.send('calls.phone_number.update', partnerId, {
      id: number.id,
      changes: { label: null, agent_id: null },
    });
    expect(await rowOf(number.id)).toEqual({ label: null, agent_id: null });
  });

  it("refuses another partner's number and agent with 404, changing nothing", async () => {
    const partnerId = randomUUID();
    const number = await imported(partnerId, '+919812370002');
    const othersAgent = randomUUID();
    ownAgents.set(othersAgent, randomUUID());

    await expect(
      refusal(
        calls.send('calls.phone_number.update', randomUUID(), { id: number.id, changes: { label: 'X' } }),
      ),
    ).resolves.toMatchObject({ code: ErrorCode.NOT_FOUND, message: 'Phone number not found' });
    await expect(
      refusal(
        calls.send('calls.phone_number.update', partnerId, {
          id: number.id,
          changes: { label: 'X', agent_id: othersAgent },
        }),
      ),
    ).resolves.toMatchObject({ code: ErrorCode.NOT_FOUND });
    expect(await rowOf(number.id)).toEqual({ label: 'Old', agent_id: null });
  });
});
