import { MessagingTables1763800000000 } from './1763800000000-messaging-tables';
import { VoiceCatalog1763800001000 } from './1763800001000-voice-catalog';
import { Agents1763800001100 } from './1763800001100-agents';
import { ExtractionSets1763800001200 } from './1763800001200-extraction-sets';
import { KnowledgeBase1763800002000 } from './1763800002000-knowledge-base';
import { InboxPruneIndex1763900010000 } from './1763900010000-inbox-prune-index';
import { AgentTurnTaking1764800010000 } from './1764800010000-agent-turn-taking';
import { CustomFunctions1764900010000 } from './1764900010000-custom-functions';
import { IntegrationLogs1764900020000 } from './1764900020000-integration-logs';
import { AgentDtmf1764900040000 } from './1764900040000-agent-dtmf';
import { ProjectsApi1764900050000 } from './1764900050000-projects-api';
import { ProviderCredentials1765000043100 } from './1765000043100-provider-credentials';
import { AgentSpeechFields1765100010000 } from './1765100010000-agent-speech-fields';
import { Dictionaries1765100020000 } from './1765100020000-dictionaries';
import { CatalogVoices1765100030000 } from './1765100030000-catalog-voices';
import { VoicePreviews1765100040000 } from './1765100040000-voice-previews';
import { PartnerTiers1765100090000 } from './1765100090000-partner-tiers';
import { AgentAnalysis1765200010000 } from './1765200010000-agent-analysis';
import { AgentHandoffs1765200020000 } from './1765200020000-agent-handoffs';
import { AgentTransferMode1765400030000 } from './1765400030000-agent-transfer-mode';
import { AgentSms1765400210000 } from './1765400210000-agent-sms';
import { AgentTools1765400400000 } from './1765400400000-agent-tools';
import { CustomerConnectors1765400100000 } from './1765400100000-customer-connectors';
import { ConnectorReconsent1765400500000 } from './1765400500000-connector-reconsent';
import { RetireGoogleVoices1765500400000 } from './1765500400000-retire-google-voices';
import { ModelsPerAgent1765600100000 } from './1765600100000-models-per-agent';
import { LocalVoices1765700200000 } from './1765700200000-local-voices';

/** Every migration of the agents schema, oldest first. */
export const MIGRATIONS = [
  MessagingTables1763800000000,
  VoiceCatalog1763800001000,
  Agents1763800001100,
  ExtractionSets1763800001200,
  KnowledgeBase1763800002000,
  InboxPruneIndex1763900010000,
  AgentTurnTaking1764800010000,
  CustomFunctions1764900010000,
  IntegrationLogs1764900020000,
  AgentDtmf1764900040000,
  ProjectsApi1764900050000,
  ProviderCredentials1765000043100,
  AgentSpeechFields1765100010000,
  Dictionaries1765100020000,
  CatalogVoices1765100030000,
  VoicePreviews1765100040000,
  PartnerTiers1765100090000,
  AgentAnalysis1765200010000,
  AgentHandoffs1765200020000,
  AgentTransferMode1765400030000,
  AgentSms1765400210000,
  AgentTools1765400400000,
  CustomerConnectors1765400100000,
  ConnectorReconsent1765400500000,
  RetireGoogleVoices1765500400000,
  ModelsPerAgent1765600100000,
  LocalVoices1765700200000,
];
