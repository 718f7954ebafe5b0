import { join } from 'node:path';
import { BaseServiceConfig, configVariableNames, envExampleVariableNames } from '@vap/runtime';
import { CampaignsConfig } from './campaigns.config';

it('.env.example documents exactly the variables the campaigns service reads', () => {
  const read = configVariableNames(BaseServiceConfig, CampaignsConfig);
  expect(envExampleVariableNames(join(__dirname, '../../.env.example'))).toEqual(read);
});
