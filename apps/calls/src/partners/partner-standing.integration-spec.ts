// Whether a partner may call, in the running calls module: the standing a start command's sender tells and the
// gateway's partner events (published on the run's stream as the gateway publishes them) meet by the gateway's
// version of the partner, and at one version the gateway's word wins over a sender's.
import { PartnerDto } from '@vap/api';
import { DomainEvents, ErrorCode, PartnerContext } from '@vap/messages';
import { useIntegrationApp } from '@vap/testing/integration';
import { startCalls } from '../testing/calls-integration';
import { approvedPartner } from '../testing/spec-partners';
import { PartnerStanding } from './partner-standing';

describe('partner standing', () => {
  let standing: PartnerStanding;

  const calls = useIntegrationApp(() => startCalls());

  beforeAll(() => {
    standing = calls.get(PartnerStanding);
  });

  /** The gateway's partner.updated for `partner` as it stands at `version`, once the calls service handled it. */
  async function gatewaySays(partner: PartnerContext, status: PartnerDto['status'], version: number) {
    const dto: PartnerDto = {
      id: partner.id,
      name: 'Acme',
      status,
      balance_inr: 1000,
      concurrency_limit: 5,
      voice_tier: 'standard',
      created_at: calls.clock.now().toISOString(),
      updated_at: calls.clock.now().toISOString(),
      version,
      reseller: false,
      reseller_id: null,
      price_per_minute_inr: null,
    } as PartnerDto;
    const { seq } = await calls.publish(DomainEvents.partnerUpdated, dto, partner.id);
    await calls.waitForConsumed('calls__partner_updated', seq);
  }

  it('refuses once the gateway says suspended at the version a sender already claimed approved', async () => {
    const partner = approvedPartner({ version: 5 });
    await expect(standing.assertMayCall(partner)).resolves.toBeUndefined();

    await gatewaySays(partner, 'suspended', 5);

    await expect(standing.assertMayCall(partner)).rejects.toMatchObject({
      code: ErrorCode.FORBIDDEN,
      message: 'This account is suspended',
    });
  });

  it('keeps the gateway word against a sender that tells another status at the same version later', async () => {
    const partner = approvedPartner({ version: 7 });
    await gatewaySays(partner, 'suspended', 7);

    await expect(standing.assertMayCall(partner)).rejects.toMatchObject({ code: ErrorCode.FORBIDDEN });
    await expect(standing.assertMayCall(partner)).rejects.toMatchObject({ code: ErrorCode.FORBIDDEN });
  });

  it('takes the newest version whoever tells it: an older event changes nothing, a newer snapshot counts', async () => {
    const partner = approvedPartner({ version: 9 });
    await expect(standing.assertMayCall(partner)).resolves.toBeUndefined();
    await gatewaySays(partner, 'suspended', 8);
    await expect(standing.assertMayCall(partner)).resolves.toBeUndefined();

    await gatewaySays(partner, 'suspended', 10);
    await expect(standing.assertMayCall(partner)).rejects.toMatchObject({ code: ErrorCode.FORBIDDEN });
    await expect(standing.assertMayCall({ ...partner, version: 11 })).resolves.toBeUndefined();
  });
});
