// The gateway's cache of valid API keys, on its own database and a manual clock: a key that authenticated is served
// without Postgres until API_KEY_CACHE_TTL_MS has passed since its read began (a slow read does not stretch it), and a
// revocation on this replica drops it at once.
import { DataSource } from 'typeorm';
import { tableOf } from '@vap/persistence';
import { useIntegrationApp } from '@vap/testing/integration';
import { ApiKeysService } from '../accounts/api-keys.service';
import { PartnersService } from '../accounts/partners.service';
import { startGateway } from '../testing/gateway-integration';
import { ApiKeyCache } from './api-key-cache';

const TTL_MS = 5000;

describe('API key cache', () => {
  const gateway = useIntegrationApp(() => startGateway({ env: { API_KEY_CACHE_TTL_MS: String(TTL_MS) } }));
  const keys = () => gateway.get(ApiKeysService);
  const cache = () => gateway.get(ApiKeyCache);

  async function newKey(): Promise<{ key: string; keyId: string; partnerId: string }> {
    const created = await gateway.get(PartnersService).create({ name: 'Acme Voice', balance_inr: 100 });
    return { key: created.api_key, keyId: created.key.id, partnerId: created.partner.id };
  }

  it('serves an authenticated key from the cache until the TTL has passed, then reads Postgres again', async () => {
    const { key, partnerId } = await newKey();
    const first = await keys().authenticate(key);
    expect(first?.partner.id).toBe(partnerId);
    // Revoked behind the cache's back (as another replica whose notice was lost): still served within the TTL.
    const db = gateway.get(DataSource);
    await db.query(`UPDATE ${tableOf(db, 'api_keys')} SET revoked_at = now() WHERE partner_id = $1`, [
      partnerId,
    ]);
    gateway.clock.advance(TTL_MS - 1);
    expect((await keys().authenticate(key))?.partner.id).toBe(partnerId);
    gateway.clock.advance(1);
    expect(await keys().authenticate(key)).toBeNull();
  });

  it('counts the TTL from when the read began, so a slow read does not keep a revoked key longer', () => {
    const hash = 'a'.repeat(64);
    const found = { keyId: 'k', partner: { id: 'p' } as never, scopes: null, lastUsedAt: null };
    const read = cache().readMark();
    // The read took most of the TTL: what it found expires a TTL after it began.
    gateway.clock.advance(TTL_MS - 100);
    cache().set(hash, found, read);
    expect(cache().get(hash)).not.toBeNull();
    gateway.clock.advance(100);
    expect(cache().get(hash)).toBeNull();
    // A read slower than the whole TTL is not kept at all.
    const slow = cache().readMark();
    gateway.clock.advance(TTL_MS);
    cache().set(hash, found, slow);
    expect(cache().get(hash)).toBeNull();
  });

  it('drops the account’s keys at once when one is revoked here, and keeps nothing a read began before', async () => {
    const { key, keyId, partnerId } = await newKey();
    expect(await keys().authenticate(key)).not.toBeNull();
    const before = cache().readMark();
    await keys().revoke(partnerId, keyId);
    expect(await keys().authenticate(key)).toBeNull();
    // A lookup that read the key before the revocation must not put it back.
    cache().set(
      'b'.repeat(64),
      { keyId, partner: { id: partnerId } as never, scopes: null, lastUsedAt: null },
      before,
    );
    expect(cache().get('b'.repeat(64))).toBeNull();
  });
});
