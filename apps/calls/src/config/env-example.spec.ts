import { join } from 'node:path';
import { BaseServiceConfig, configVariableNames, envExampleVariableNames } from '@vap/runtime';
import { BlobStorageConfig } from '@vap/storage';
import { CallsConfig } from './calls.config';
import { TelephonyConfig } from './telephony.config';

it('.env.example documents exactly the variables the calls service reads', () => {
  const read = configVariableNames(BaseServiceConfig, CallsConfig, TelephonyConfig, BlobStorageConfig);
  expect(envExampleVariableNames(join(__dirname, '../../.env.example'))).toEqual(read);
});
