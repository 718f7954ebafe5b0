import { DataSource } from 'typeorm';
import { PhoneNumber } from '../phone-numbers/entities/phone-number.entity';
import { InboundRoutePolicy } from './entities/inbound-route-policy.entity';

/** The phone number a PHONE_NUMBER policy routes, which its dto names; null for the other scopes. */
export function policyNumberOf(
  dataSource: DataSource,
  policy: InboundRoutePolicy,
): Promise<PhoneNumber | null> {
  return policy.phoneNumberId
    ? dataSource.getRepository(PhoneNumber).findOne({ where: { id: policy.phoneNumberId } })
    : Promise.resolve(null);
}
