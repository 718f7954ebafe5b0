import { DataSource } from 'typeorm';
import { AppError } from '@vap/messages';
import { PhoneNumber } from './entities/phone-number.entity';

/** The partner's number `id`: 404 when it is another partner's or none, so another account's number is absent. */
export async function findOwnPhoneNumber(
  dataSource: DataSource,
  partnerId: string,
  id: string,
): Promise<PhoneNumber> {
  const number = await dataSource.getRepository(PhoneNumber).findOne({ where: { id, partnerId } });
  if (!number) throw AppError.notFound('Phone number');
  return number;
}
