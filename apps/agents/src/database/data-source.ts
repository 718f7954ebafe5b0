import { join } from 'node:path';
import { DataSourceOptions } from 'typeorm';
import { MESSAGING_ENTITIES } from '@vap/messaging';
import { schemaDataSourceOptions, migrationsIn } from '@vap/persistence';
import { AgentsConfig } from '../config/agents.config';
import { Agent } from '../agents/entities/agent.entity';
import { AgentExtractionSet } from '../extraction/entities/agent-extraction-set.entity';
import { ExtractionSet } from '../extraction/entities/extraction-set.entity';
import { Project } from '../projects/entities/project.entity';
import { BackgroundAudio } from '../voices/entities/background-audio.entity';
import { Voice } from '../voices/entities/voice.entity';
import { VoicePreview } from '../voices/entities/voice-preview.entity';
import { Dictionary } from '../dictionaries/entities/dictionary.entity';
import { Document } from '../documents/entities/document.entity';
import { AgentDocument } from '../knowledge/entities/agent-document.entity';
import { CustomFunction } from '../custom-functions/entities/custom-function.entity';
import { AgentCustomFunction } from '../custom-functions/entities/agent-custom-function.entity';
import { IntegrationLog } from '../integration-logs/entities/integration-log.entity';
import { ProviderCredential } from '../provider-credentials/entities/provider-credential.entity';
import { Connector } from '../connectors/entities/connector.entity';
import { CustomerConnection } from '../connectors/entities/customer-connection.entity';

export const SCHEMA = 'agents';

export function agentsDataSourceOptions(config: AgentsConfig): DataSourceOptions {
  return schemaDataSourceOptions({
    url: config.DATABASE_URL,
    schema: SCHEMA,
    entities: [
      ...MESSAGING_ENTITIES,
      Project,
      Voice,
      BackgroundAudio,
      Agent,
      ExtractionSet,
      AgentExtractionSet,
      Document,
      AgentDocument,
      CustomFunction,
      AgentCustomFunction,
      IntegrationLog,
      ProviderCredential,
      Dictionary,
      VoicePreview,
      Connector,
      CustomerConnection,
    ],
    migrations: migrationsIn(join(__dirname, 'migrations')),
    applicationName: 'agents',
  });
}
