import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { createHash, randomUUID } from 'node:crypto';
import { DataSource } from 'typeorm';
import { PhoneNumberId } from '@vap/messages';
import { tableOf } from '@vap/persistence';
import { PhoneNumber } from '../phone-numbers/entities/phone-number.entity';

/**
 * A sandbox from-number of the partner: +1555 and seven digits derived from the partner id, so it is
 * stable, recognisably fictional (555) and the same on every replica that creates it.
 */
export function sandboxNumberOf(partnerId: string): string {
  const digits =
    BigInt(`0x${createHash('sha256').update(partnerId).digest('hex').slice(0, 12)}`) % 10_000_000n;
  return `+1555${digits.toString().padStart(7, '0')}`;
}

/**
 * Every partner starts with a sandbox connection and a default from-number on it. They are created on
 * first need, race-free: unique indexes let concurrent first calls insert once and read the same rows.
 */
@Injectable()
export class DefaultLineService {
  constructor(@InjectDataSource() private readonly dataSource: DataSource) {}

  /** The partner's default from-number (the most recent active default, the sandbox one if none). */
  async defaultNumber(partnerId: string): Promise<PhoneNumber> {
    const existing = await this.findDefault(partnerId);
    if (existing) return existing;
    await this.ensureSandbox(partnerId);
    const created = await this.findDefault(partnerId);
    if (!created) throw new Error(`no default from-number for partner ${partnerId}`);
    return created;
  }

  /** Creates the sandbox connection and its default number unless the partner has them. */
  async ensureSandbox(partnerId: string): Promise<void> {
    await this.dataSource.transaction(async (em) => {
      await em.query(
        `INSERT INTO ${tableOf(em, 'connections')} (id, partner_id, provider, name, status)
         VALUES ($1, $2, 'sandbox', 'Sandbox', 'active')
         ON CONFLICT (partner_id) WHERE provider = 'sandbox' DO NOTHING`,
        [randomUUID(), partnerId],
      );
      const [connection] = (await em.query(
        `SELECT id FROM ${tableOf(em, 'connections')} WHERE partner_id = $1 AND provider = 'sandbox'`,
        [partnerId],
      )) as { id: string }[];
      await em.query(
        `INSERT INTO ${tableOf(em, 'phone_numbers')} (id, partner_id, number, connection_id, provider, is_default, status)
         SELECT $1, $2, $3, $4, 'sandbox', NOT EXISTS (
                  SELECT 1 FROM ${tableOf(em, 'phone_numbers')} WHERE partner_id = $2 AND is_default), 'active'
         ON CONFLICT DO NOTHING`,
        [PhoneNumberId.format(randomUUID()), partnerId, sandboxNumberOf(partnerId), connection.id],
      );
    });
  }

  private findDefault(partnerId: string): Promise<PhoneNumber | null> {
    return this.dataSource.getRepository(PhoneNumber).findOne({
      where: { partnerId, isDefault: true, status: 'active' },
      order: { createdAt: 'DESC' },
    });
  }
}
