import { join } from 'node:path';
import { BaseServiceConfig, configVariableNames, envExampleVariableNames } from '@vap/runtime';
import { BlobStorageConfig } from '@vap/storage';
import { GatewayConfig } from './gateway.config';

it('.env.example documents exactly the variables the gateway reads', () => {
  const read = configVariableNames(BaseServiceConfig, GatewayConfig, BlobStorageConfig);
  expect(envExampleVariableNames(join(__dirname, '../../.env.example'))).toEqual(read);
});
