// Creating a reseller-link connection in the running calls module, as the operator API sends it: the
// connection is stored with its API key sealed and masked and its base URL without a trailing slash; a partner
// may have several; a body without an API key is refused.
import { randomUUID } from 'node:crypto';
import { DataSource } from 'typeorm';
import { ErrorCode } from '@vap/messages';
import { useIntegrationApp } from '@vap/testing/integration';
import { startCalls } from '../../../../testing/calls-integration';
import { CredentialsStore, ResellerLinkCredentials } from '../../../connections/credentials-store.service';

describe('create a reseller-link connection', () => {
  const calls = useIntegrationApp(() => startCalls());

  it('stores the connection with its key sealed, and a second one beside it', async () => {
    const partnerId = randomUUID();
    const created = await calls.send('calls.reseller_link.connection_create', partnerId, {
      api_base_url: 'https://reseller.example/api//',
      api_key: 'reseller-key-000000000001',
      label: 'Reseller A',
    });
    expect(created).toMatchObject({
      provider: 'reseller-link',
      account_id_masked: 'rese*****************0001',
      api_base_url: 'https://reseller.example/api',
      label: 'Reseller A',
      from_number: null,
      inbound_webhook_url: null,
      status: 'active',
    });
    await expect(calls.get(CredentialsStore).open<ResellerLinkCredentials>(created.id)).resolves.toEqual({
      api_key: 'reseller-key-000000000001',
    });

    const second = await calls.send('calls.reseller_link.connection_create', partnerId, {
      api_base_url: 'https://reseller.example/api',
      api_key: 'reseller-key-000000000002',
    });
    const rows = (await calls
      .get(DataSource)
      .query(`SELECT id, name FROM calls.connections WHERE partner_id = $1 ORDER BY name`, [partnerId])) as {
      id: string;
      name: string;
    }[];
    expect(rows).toEqual([
      { id: created.id, name: 'Reseller A' },
      { id: second.id, name: 'reseller-link' },
    ]);
  });

  it('refuses a body without an API key, storing nothing', async () => {
    const partnerId = randomUUID();
    await expect(
      calls.send('calls.reseller_link.connection_create', partnerId, {
        api_base_url: 'https://reseller.example/api',
      } as never),
    ).rejects.toMatchObject({
      code: ErrorCode.VALIDATION_ERROR,
      message: 'Invalid request: api_key is required',
    });
    const rows = (await calls
      .get(DataSource)
      .query(`SELECT 1 FROM calls.connections WHERE partner_id = $1`, [partnerId])) as unknown[];
    expect(rows).toEqual([]);
  });
});
