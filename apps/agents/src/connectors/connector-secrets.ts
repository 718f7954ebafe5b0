import { Injectable } from '@nestjs/common';
import { SecretBox } from '@vap/secrets';
import { CustomFunctionsConfig } from '../config/custom-functions.config';

type ConnectionField = 'access_token' | 'refresh_token' | 'verifier';

/**
 * A connector's client secret and a connection's credential, sealed with SECRETS_KEY (the custom functions'
 * key: the same service opens both), each bound to its row and field, so a value copied elsewhere does not open.
 */
@Injectable()
export class ConnectorSecrets {
  private readonly box: SecretBox;

  constructor(config: CustomFunctionsConfig) {
    this.box = new SecretBox(config.SECRETS_KEY);
  }

  sealClientSecret(connectorId: string, secret: string | null | undefined): string | null {
    return secret ? this.box.seal(secret, `connector:${connectorId}:client_secret`) : null;
  }

  openClientSecret(connectorId: string, sealed: string | null): string | null {
    return sealed === null ? null : this.box.open(sealed, `connector:${connectorId}:client_secret`);
  }

  seal(connectionId: string, field: ConnectionField, value: string): string;
  seal(connectionId: string, field: ConnectionField, value: string | null | undefined): string | null;
  seal(connectionId: string, field: ConnectionField, value: string | null | undefined): string | null {
    return value ? this.box.seal(value, `connection:${connectionId}:${field}`) : null;
  }

  open(connectionId: string, field: ConnectionField, sealed: string | null): string | null {
    return sealed === null ? null : this.box.open(sealed, `connection:${connectionId}:${field}`);
  }
}
