import { PartnerContext } from '@vap/messages';
import { Partner } from './entities/partner.entity';

/** The snapshot of a partner that its commands carry to the other services. */
export function toPartnerContext(p: Partner): PartnerContext {
  return {
    id: p.id,
    status: p.status,
    voiceTier: p.voiceTier,
    concurrencyLimit: p.concurrencyLimit,
    balancePaise: p.balancePaise,
    pricePerMinutePaise: p.pricePerMinutePaise ?? null,
    resellerId: p.resellerId ?? null,
    version: p.version,
  };
}
