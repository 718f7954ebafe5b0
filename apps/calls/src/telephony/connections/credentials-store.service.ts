import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, EntityManager } from 'typeorm';
import { AppError } from '@vap/messages';
import { SecretBox } from '@vap/secrets';
import { ConnectionCredentials } from './entities/connection-credentials.entity';

export interface CarrierACredentials {
  auth_id: string;
  auth_token: string;
}
export interface CarrierBCredentials {
  account_sid: string;
  auth_token: string;
}
export interface ResellerLinkCredentials {
  api_key: string;
}
export type AnyCredentials = CarrierACredentials | CarrierBCredentials | ResellerLinkCredentials;

/** Binds a sealed credential blob to its connection: copied to another row it does not open. */
const contextOf = (connectionId: string) => `connection:${connectionId}:credentials`;

/** Seals and opens connection credentials; the only place plaintext credentials exist in the service. */
@Injectable()
export class CredentialsStore {
  constructor(
    @InjectDataSource() private readonly dataSource: DataSource,
    private readonly box: SecretBox,
  ) {}

  seal(connectionId: string, credentials: AnyCredentials): string {
    return this.box.seal(JSON.stringify(credentials), contextOf(connectionId));
  }

  /** The decrypted credentials of a connection; a connection without stored credentials is a 404. */
  async open<T extends AnyCredentials>(
    connectionId: string,
    em: EntityManager = this.dataSource.manager,
  ): Promise<T> {
    const row = await em.findOne(ConnectionCredentials, { where: { connectionId } });
    if (!row) throw AppError.notFound('Carrier credentials');
    return JSON.parse(this.box.open(row.sealed, contextOf(connectionId))) as T;
  }
}
