import { join } from 'node:path';
import { BaseServiceConfig, configVariableNames, envExampleVariableNames } from '@vap/runtime';
import { BlobStorageConfig } from '@vap/storage';
import { AgentsConfig } from './agents.config';
import { KnowledgeConfig } from './knowledge.config';
import { CustomFunctionsConfig } from './custom-functions.config';
import { SpeechConfig } from './speech.config';
import { ModelsConfig } from './models.config';

it('.env.example documents exactly the variables the agents service reads', () => {
  const read = configVariableNames(
    BaseServiceConfig,
    AgentsConfig,
    KnowledgeConfig,
    BlobStorageConfig,
    CustomFunctionsConfig,
    SpeechConfig,
    ModelsConfig,
  );
  expect(envExampleVariableNames(join(__dirname, '../../.env.example'))).toEqual(read);
});
