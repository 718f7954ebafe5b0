import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import { TelephonyConnectionResourceDto } from '@vap/api';
import { findOwnTelephonyConnection, TelephonyConnectionViews } from '../../telephony-connection-views';

/** calls.telephony_connection.get: one of the account's carrier connections (another account's is 404). */
@Injectable()
export class GetTelephonyConnection {
  constructor(
    @InjectDataSource() private readonly dataSource: DataSource,
    private readonly views: TelephonyConnectionViews,
  ) {}

  async execute(partnerId: string, id: string): Promise<TelephonyConnectionResourceDto> {
    const em = this.dataSource.manager;
    return this.views.view(em, await findOwnTelephonyConnection(em, partnerId, id));
  }
}
