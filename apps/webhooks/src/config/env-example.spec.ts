import { join } from 'node:path';
import { BaseServiceConfig, configVariableNames, envExampleVariableNames } from '@vap/runtime';
import { WebhooksConfig } from './webhooks.config';

it('.env.example documents exactly the variables the webhooks service reads', () => {
  const read = configVariableNames(BaseServiceConfig, WebhooksConfig);
  expect(envExampleVariableNames(join(__dirname, '../../.env.example'))).toEqual(read);
});
