import type {
  AgentDeletedDto,
  AgentDto,
  AgentEffectiveToolsDto,
  AgentListDto,
  CreateAgentDto,
  ListAgentsQueryDto,
  UpdateAgentDto,
} from '../agents';
import type {
  CreateLifecycleHookDto,
  LifecycleHookDeletedDto,
  LifecycleHookDto,
  LifecycleHookListDto,
  LifecycleHookWithSecretDto,
  UpdateLifecycleHookDto,
} from '../lifecycle-hooks';
import type {
  CreateDictionaryDto,
  DictionaryDeletedDto,
  DictionaryDto,
  DictionaryListDto,
  ListDictionariesQueryDto,
  UpdateDictionaryDto,
} from '../dictionaries';
import type {
  CatalogVoiceDto,
  CatalogVoiceListDto,
  CreateCatalogVoiceDto,
  ListCatalogVoicesQueryDto,
  UpdateCatalogVoiceDto,
} from '../voices/catalog-voice.dto';
import type {
  CreateProjectDto,
  ListProjectsQueryDto,
  ProjectDeletedDto,
  ProjectDto,
  ProjectListDto,
  UpdateProjectDto,
} from '../projects';
import {
  CreateCustomFunctionDto,
  CustomFunctionDeletedDto,
  CustomFunctionDto,
  CustomFunctionListDto,
  CustomFunctionTestResultDto,
  CustomFunctionWithSecretDto,
  ListCustomFunctionsQueryDto,
  TestCustomFunctionDto,
  UpdateCustomFunctionDto,
} from '../custom-functions';
import type {
  CreateProviderCredentialDto,
  ProviderCredentialDeletedDto,
  ProviderCredentialListDto,
  ProviderCredentialRecordDto,
  ProviderCredentialWithSecretRecordDto,
  RotateProviderCredentialDto,
  UpdateProviderCredentialDto,
} from '../provider-credentials';
import type {
  CallDto,
  CallListDto,
  ListCallsQueryDto,
  RecordingUrlDto,
  StartCallCommand,
  StartCallResult,
} from '../calls';
import type {
  BrowserSessionDto,
  BrowserSessionListDto,
  CreateBrowserSessionDto,
  CreatedBrowserSessionDto,
  ListBrowserSessionsQueryDto,
} from '../browser-sessions';
import type {
  AddContactsBatch,
  CampaignDeletedDto,
  CampaignDto,
  CampaignListDto,
  ContactListDto,
  ContactsUploadReportDto,
  CreateCampaignDto,
  ListCampaignsQueryDto,
  ListContactsQueryDto,
  StartCampaignDto,
  UpdateCampaignDto,
} from '../campaigns';
import {
  CreateTestRunDto,
  CreateTestScenarioDto,
  ListTestRunsQueryDto,
  ListTestScenariosQueryDto,
  TestRunDto,
  TestRunListDto,
  TestScenarioDeletedDto,
  TestScenarioDto,
  TestScenarioListDto,
  UpdateTestScenarioDto,
} from '../test-runs';
import type {
  CreateDoNotCallDto,
  DoNotCallDeletedDto,
  DoNotCallEntryDto,
  DoNotCallExportPage,
  DoNotCallExportPageRequest,
  DoNotCallImportBatch,
  DoNotCallImportReportDto,
  DoNotCallListDto,
  DoNotCallLookupDto,
  DoNotCallLookupQueryDto,
  ListDoNotCallQueryDto,
  ListPolicyDecisionsQueryDto,
  PolicyDecisionListDto,
  ContactPolicySettingsDto,
  UpdateContactPolicySettingsDto,
  UpdateDoNotCallDto,
} from '../contact-policy';
import type {
  CreateDocumentDto,
  CreateWebLinkDocumentDto,
  DocumentDto,
  DocumentListDto,
  DocumentMessageDto,
  DocumentUploadDto,
  ListDocumentsQueryDto,
} from '../documents';
import type {
  CreateExtractionSetDto,
  ExtractionSetDeletedDto,
  ExtractionSetDto,
  ExtractionSetListDto,
  ListExtractionSetsQueryDto,
  UpdateExtractionSetDto,
} from '../extraction/extraction-set.dto';
import type { FromAgentDto } from '../extraction/from-agent.dto';
import type { IntegrationLogDto, IntegrationLogListDto, ListIntegrationLogsQueryDto } from '../integrations';
import type { AgentKnowledgeDocumentListDto, LinkAgentDocumentsDto } from '../knowledge';
import type {
  CarrierACredentialsDto,
  CarrierACredentialsSavedDto,
  CarrierBCredentialsDto,
  CarrierBCredentialsSavedDto,
  CreateInboundRoutePolicyDto,
  CreateResellerLinkConnectionDto,
  ImportPhoneNumberDto,
  InboundRouteDecisionDto,
  InboundRouteDecisionListDto,
  InboundRoutePolicyDeletedDto,
  InboundRoutePolicyDto,
  InboundRoutePolicyListDto,
  ListInboundRouteDecisionsQueryDto,
  ListPhoneNumbersQueryDto,
  PhoneNumberDeletedDto,
  PhoneNumberDto,
  PhoneNumberListDto,
  ResellerCallRoutingDto,
  ResellerCallRoutingQueryDto,
  SandboxInboundCallDto,
  TelephonyConnectionDeletedDto,
  TelephonyConnectionDto,
  TelephonyConnectionListDto,
  TelephonyConnectionResourceDto,
  TelephonyConnectionResourceListDto,
  TelephonyConnectionTestDto,
  UpdateTelephonyConnectionDto,
  UpdateInboundRoutePolicyDto,
  UpdatePhoneNumberDto,
} from '../telephony';
import type {
  ListMessagesQueryDto,
  MessageDto,
  MessageListDto,
  SandboxInboundMessageDto,
  SendMessageDto,
  SmsPolicyDto,
  UpdateSmsPolicyDto,
} from '../messages';
import type { AgentVoiceListDto, BackgroundAudioListDto } from '../voices';
import type { ListModelsQueryDto, ModelCatalogDto } from '../models';
import type {
  AgentFlagSetCommand,
  AgentFlagSetResult,
  AgentWebhooksDto,
  AgentWebhooksUpdatedDto,
  CreateAgentWebhookEndpointDto,
  CreateWebhookEndpointDto,
  LegacyWebhookDto,
  LegacyWebhookResultDto,
  ListWebhookDeliveriesQueryDto,
  UpdateAgentWebhooksDto,
  UpdateWebhookEndpointDto,
  WebhookDeliveryDetailDto,
  WebhookDeliveryDto,
  WebhookDeliveryListDto,
  WebhookEndpointDeletedDto,
  WebhookEndpointDto,
  WebhookEndpointListDto,
  WebhookEndpointWithSecretDto,
} from '../webhooks';

import type {
  ConnectionCreateRequest,
  ConnectionDeletedDto,
  ConnectionDeleteRequest,
  ConnectionLinkDto,
  ConnectionListDto,
  ConnectionListRequest,
  ConnectorDeletedDto,
  ConnectorDto,
  ConnectorListDto,
  CreateConnectorDto,
  ListConnectorsQueryDto,
  UpdateConnectorDto,
} from '../connectors';
import type {
  ByIdRequest,
  CommandContract as Command,
  EffectiveExtractionSchema,
  EffectiveSchemaRequest,
  EmptyRequest,
  HealthPingSubject,
  NamedCommandSubject,
  ServiceCommands,
  UpdateRequest,
} from '@vap/messages';

export interface CustomFunctionAttachRequest {
  agentId: string;
  functionId: string;
}
export interface CustomFunctionTestRequest {
  id: string;
  test: TestCustomFunctionDto;
}
export interface ExtractionSetAttachRequest {
  agentId: string;
  setId: string;
}
export interface AgentDocumentLinkRequest {
  agentId: string;
  body: LinkAgentDocumentsDto;
}
export interface AgentDocumentUnlinkRequest {
  agentId: string;
  documentId: string;
}
export interface ResellerLinkDeactivateRequest {
  connectionId: string;
}
export interface StartCampaignRequest {
  id: string;
  options: StartCampaignDto;
}
export interface ListContactsRequest {
  id: string;
  query: ListContactsQueryDto;
}
export interface AgentWebhooksCreateRequest {
  agentId: string;
  endpoint: CreateAgentWebhookEndpointDto;
}
export interface AgentWebhooksUpdateRequest {
  agentId: string;
  changes: UpdateAgentWebhooksDto;
}
export interface ListWebhookDeliveriesRequest {
  endpointId: string;
  query: ListWebhookDeliveriesQueryDto;
}

/**
 * The commands that carry a public request or answer a public response, added to @vap/messages'
 * ServiceCommands: a program that imports @vap/api sees every command, one that speaks only internal
 * messages sees those alone.
 */
declare module '@vap/messages' {
  interface ServiceCommands {
    'agents.agent.create': Command<CreateAgentDto, AgentDto>;
    'agents.agent.list': Command<ListAgentsQueryDto, AgentListDto>;
    'agents.agent.get': Command<ByIdRequest, AgentDto>;
    'agents.agent.update': Command<UpdateRequest<UpdateAgentDto>, AgentDto>;
    'agents.agent.delete': Command<ByIdRequest, AgentDeletedDto>;
    'agents.agent.tools': Command<ByIdRequest, AgentEffectiveToolsDto>;
    'agents.project.create': Command<CreateProjectDto, ProjectDto>;
    'agents.project.list': Command<ListProjectsQueryDto, ProjectListDto>;
    'agents.project.get': Command<ByIdRequest, ProjectDto>;
    'agents.project.update': Command<UpdateRequest<UpdateProjectDto>, ProjectDto>;
    'agents.project.delete': Command<ByIdRequest, ProjectDeletedDto>;
    'agents.dictionary.create': Command<CreateDictionaryDto, DictionaryDto>;
    'agents.dictionary.list': Command<ListDictionariesQueryDto, DictionaryListDto>;
    'agents.dictionary.get': Command<ByIdRequest, DictionaryDto>;
    'agents.dictionary.update': Command<UpdateRequest<UpdateDictionaryDto>, DictionaryDto>;
    'agents.dictionary.delete': Command<ByIdRequest, DictionaryDeletedDto>;
    'agents.catalog_voice.add': Command<CreateCatalogVoiceDto, CatalogVoiceDto>;
    'agents.catalog_voice.update': Command<UpdateRequest<UpdateCatalogVoiceDto>, CatalogVoiceDto>;
    'agents.catalog_voice.retire': Command<ByIdRequest, CatalogVoiceDto>;
    'agents.catalog_voice.list': Command<ListCatalogVoicesQueryDto, CatalogVoiceListDto>;
    'agents.custom_function.create': Command<CreateCustomFunctionDto, CustomFunctionWithSecretDto>;
    'agents.custom_function.list': Command<ListCustomFunctionsQueryDto, CustomFunctionListDto>;
    'agents.custom_function.get': Command<ByIdRequest, CustomFunctionDto>;
    'agents.custom_function.update': Command<UpdateRequest<UpdateCustomFunctionDto>, CustomFunctionDto>;
    'agents.custom_function.delete': Command<ByIdRequest, CustomFunctionDeletedDto>;
    'agents.custom_function.rotate_secret': Command<ByIdRequest, CustomFunctionWithSecretDto>;
    'agents.custom_function.test': Command<CustomFunctionTestRequest, CustomFunctionTestResultDto>;
    'agents.custom_function.attach': Command<CustomFunctionAttachRequest, AgentDto>;
    'agents.custom_function.detach': Command<CustomFunctionAttachRequest, AgentDto>;
    'agents.connector.create': Command<CreateConnectorDto, ConnectorDto>;
    'agents.connector.list': Command<ListConnectorsQueryDto, ConnectorListDto>;
    'agents.connector.get': Command<ByIdRequest, ConnectorDto>;
    'agents.connector.update': Command<UpdateRequest<UpdateConnectorDto>, ConnectorDto>;
    'agents.connector.delete': Command<ByIdRequest, ConnectorDeletedDto>;
    'agents.connection.create': Command<ConnectionCreateRequest, ConnectionLinkDto>;
    'agents.connection.list': Command<ConnectionListRequest, ConnectionListDto>;
    'agents.connection.delete': Command<ConnectionDeleteRequest, ConnectionDeletedDto>;
    'agents.voice.list': Command<EmptyRequest, AgentVoiceListDto>;
    'agents.model.list': Command<ListModelsQueryDto, ModelCatalogDto>;
    'agents.provider_credential.create': Command<
      CreateProviderCredentialDto,
      ProviderCredentialWithSecretRecordDto
    >;
    'agents.provider_credential.list': Command<EmptyRequest, ProviderCredentialListDto>;
    'agents.provider_credential.get': Command<ByIdRequest, ProviderCredentialRecordDto>;
    'agents.provider_credential.rotate': Command<
      UpdateRequest<RotateProviderCredentialDto>,
      ProviderCredentialWithSecretRecordDto
    >;
    'agents.provider_credential.update': Command<
      UpdateRequest<UpdateProviderCredentialDto>,
      ProviderCredentialRecordDto
    >;
    'agents.provider_credential.delete': Command<ByIdRequest, ProviderCredentialDeletedDto>;
    'agents.background_audio.list': Command<EmptyRequest, BackgroundAudioListDto>;
    'agents.extraction_set.create': Command<CreateExtractionSetDto, ExtractionSetDto>;
    'agents.extraction_set.list': Command<ListExtractionSetsQueryDto, ExtractionSetListDto>;
    'agents.extraction_set.get': Command<ByIdRequest, ExtractionSetDto>;
    'agents.extraction_set.update': Command<UpdateRequest<UpdateExtractionSetDto>, ExtractionSetDto>;
    'agents.extraction_set.delete': Command<ByIdRequest, ExtractionSetDeletedDto>;
    'agents.extraction_set.attach': Command<ExtractionSetAttachRequest, AgentDto>;
    'agents.extraction_set.detach': Command<ExtractionSetAttachRequest, AgentDto>;
    'agents.extraction_set.from_agent': Command<FromAgentDto, ExtractionSetDto>;
    'agents.extraction.effective_schema': Command<EffectiveSchemaRequest, EffectiveExtractionSchema>;
    'agents.document.create': Command<CreateDocumentDto, DocumentUploadDto>;
    'agents.document.create_web_link': Command<CreateWebLinkDocumentDto, DocumentDto>;
    'agents.document.confirm': Command<ByIdRequest, DocumentDto>;
    'agents.document.list': Command<ListDocumentsQueryDto, DocumentListDto>;
    'agents.document.get': Command<ByIdRequest, DocumentDto>;
    'agents.document.delete': Command<ByIdRequest, DocumentMessageDto>;
    'agents.agent_document.link': Command<AgentDocumentLinkRequest, AgentKnowledgeDocumentListDto>;
    'agents.agent_document.unlink': Command<AgentDocumentUnlinkRequest, DocumentMessageDto>;
    'agents.agent_document.list': Command<{ agentId: string }, AgentKnowledgeDocumentListDto>;
    'agents.integration_log.list': Command<ListIntegrationLogsQueryDto, IntegrationLogListDto>;
    'agents.integration_log.get': Command<ByIdRequest, IntegrationLogDto>;

    'calls.call.start': Command<StartCallCommand, StartCallResult>;
    'calls.call.get': Command<ByIdRequest, CallDto>;
    'calls.call.list': Command<ListCallsQueryDto, CallListDto>;
    'calls.call.recording_url': Command<ByIdRequest, RecordingUrlDto>;
    'calls.browser_session.create': Command<CreateBrowserSessionDto, CreatedBrowserSessionDto>;
    'calls.browser_session.get': Command<ByIdRequest, BrowserSessionDto>;
    'calls.browser_session.list': Command<ListBrowserSessionsQueryDto, BrowserSessionListDto>;
    'calls.test_session.create': Command<CreateBrowserSessionDto, CreatedBrowserSessionDto>;
    'calls.telephony.carrier_a_put': Command<CarrierACredentialsDto, CarrierACredentialsSavedDto>;
    'calls.telephony.carrier_b_put': Command<CarrierBCredentialsDto, CarrierBCredentialsSavedDto>;
    'calls.telephony.list': Command<EmptyRequest, TelephonyConnectionListDto>;
    'calls.telephony_connection.list': Command<EmptyRequest, TelephonyConnectionResourceListDto>;
    'calls.telephony_connection.get': Command<ByIdRequest, TelephonyConnectionResourceDto>;
    'calls.telephony_connection.update': Command<
      UpdateRequest<UpdateTelephonyConnectionDto>,
      TelephonyConnectionResourceDto
    >;
    'calls.telephony_connection.delete': Command<ByIdRequest, TelephonyConnectionDeletedDto>;
    'calls.telephony_connection.test': Command<ByIdRequest, TelephonyConnectionTestDto>;
    'calls.reseller_link.connection_create': Command<CreateResellerLinkConnectionDto, TelephonyConnectionDto>;
    'calls.reseller_link.connection_deactivate': Command<
      ResellerLinkDeactivateRequest,
      TelephonyConnectionDto
    >;
    'calls.reseller_link.call_routing': Command<ResellerCallRoutingQueryDto, ResellerCallRoutingDto>;
    'calls.do_not_call.create': Command<CreateDoNotCallDto, DoNotCallEntryDto>;
    'calls.do_not_call.list': Command<ListDoNotCallQueryDto, DoNotCallListDto>;
    'calls.do_not_call.get': Command<ByIdRequest, DoNotCallEntryDto>;
    'calls.do_not_call.update': Command<UpdateRequest<UpdateDoNotCallDto>, DoNotCallEntryDto>;
    'calls.do_not_call.delete': Command<ByIdRequest, DoNotCallDeletedDto>;
    'calls.do_not_call.lookup': Command<DoNotCallLookupQueryDto, DoNotCallLookupDto>;
    'calls.do_not_call.import': Command<DoNotCallImportBatch, DoNotCallImportReportDto>;
    'calls.do_not_call.export_page': Command<DoNotCallExportPageRequest, DoNotCallExportPage>;
    'calls.policy_decision.list': Command<ListPolicyDecisionsQueryDto, PolicyDecisionListDto>;
    'calls.contact_policy.settings_get': Command<EmptyRequest, ContactPolicySettingsDto>;
    'calls.contact_policy.settings_update': Command<UpdateContactPolicySettingsDto, ContactPolicySettingsDto>;
    'calls.phone_number.import': Command<ImportPhoneNumberDto, PhoneNumberDto>;
    'calls.phone_number.list': Command<ListPhoneNumbersQueryDto, PhoneNumberListDto>;
    'calls.phone_number.get': Command<ByIdRequest, PhoneNumberDto>;
    'calls.phone_number.update': Command<UpdateRequest<UpdatePhoneNumberDto>, PhoneNumberDto>;
    'calls.phone_number.delete': Command<ByIdRequest, PhoneNumberDeletedDto>;
    'calls.inbound_policy.create': Command<CreateInboundRoutePolicyDto, InboundRoutePolicyDto>;
    'calls.inbound_policy.list': Command<EmptyRequest, InboundRoutePolicyListDto>;
    'calls.inbound_policy.get': Command<ByIdRequest, InboundRoutePolicyDto>;
    'calls.inbound_policy.update': Command<UpdateRequest<UpdateInboundRoutePolicyDto>, InboundRoutePolicyDto>;
    'calls.inbound_policy.delete': Command<ByIdRequest, InboundRoutePolicyDeletedDto>;
    'calls.inbound_decision.list': Command<ListInboundRouteDecisionsQueryDto, InboundRouteDecisionListDto>;
    'calls.sandbox.inbound_call': Command<SandboxInboundCallDto, InboundRouteDecisionDto>;
    'calls.message.send': Command<SendMessageDto, MessageDto>;
    'calls.message.list': Command<ListMessagesQueryDto, MessageListDto>;
    'calls.message.get': Command<ByIdRequest, MessageDto>;
    'calls.message_policy.get': Command<EmptyRequest, SmsPolicyDto>;
    'calls.message_policy.update': Command<UpdateSmsPolicyDto, SmsPolicyDto>;
    'calls.sandbox.inbound_message': Command<SandboxInboundMessageDto, MessageDto>;
    'calls.lifecycle_hook.create': Command<CreateLifecycleHookDto, LifecycleHookWithSecretDto>;
    'calls.lifecycle_hook.list': Command<EmptyRequest, LifecycleHookListDto>;
    'calls.lifecycle_hook.get': Command<ByIdRequest, LifecycleHookDto>;
    'calls.lifecycle_hook.update': Command<UpdateRequest<UpdateLifecycleHookDto>, LifecycleHookDto>;
    'calls.lifecycle_hook.delete': Command<ByIdRequest, LifecycleHookDeletedDto>;
    'calls.lifecycle_hook.rotate_secret': Command<ByIdRequest, LifecycleHookWithSecretDto>;

    'campaigns.campaign.create': Command<CreateCampaignDto, CampaignDto>;
    'campaigns.campaign.list': Command<ListCampaignsQueryDto, CampaignListDto>;
    'campaigns.campaign.get': Command<ByIdRequest, CampaignDto>;
    'campaigns.campaign.update': Command<UpdateRequest<UpdateCampaignDto>, CampaignDto>;
    'campaigns.campaign.delete': Command<ByIdRequest, CampaignDeletedDto>;
    'campaigns.campaign.start': Command<StartCampaignRequest, CampaignDto>;
    'campaigns.campaign.pause': Command<ByIdRequest, CampaignDto>;
    'campaigns.campaign.resume': Command<ByIdRequest, CampaignDto>;
    'campaigns.contact.add': Command<AddContactsBatch, ContactsUploadReportDto>;
    'campaigns.contact.list': Command<ListContactsRequest, ContactListDto>;
    'campaigns.test_scenario.create': Command<CreateTestScenarioDto, TestScenarioDto>;
    'campaigns.test_scenario.list': Command<ListTestScenariosQueryDto, TestScenarioListDto>;
    'campaigns.test_scenario.get': Command<ByIdRequest, TestScenarioDto>;
    'campaigns.test_scenario.update': Command<UpdateRequest<UpdateTestScenarioDto>, TestScenarioDto>;
    'campaigns.test_scenario.delete': Command<ByIdRequest, TestScenarioDeletedDto>;
    'campaigns.test_run.create': Command<CreateTestRunDto, TestRunDto>;
    'campaigns.test_run.list': Command<ListTestRunsQueryDto, TestRunListDto>;
    'campaigns.test_run.get': Command<ByIdRequest, TestRunDto>;

    'webhooks.endpoint.create': Command<CreateWebhookEndpointDto, WebhookEndpointWithSecretDto>;
    'webhooks.endpoint.list': Command<EmptyRequest, WebhookEndpointListDto>;
    'webhooks.endpoint.update': Command<UpdateRequest<UpdateWebhookEndpointDto>, WebhookEndpointDto>;
    'webhooks.endpoint.delete': Command<ByIdRequest, WebhookEndpointDeletedDto>;
    'webhooks.endpoint.rotate_secret': Command<ByIdRequest, WebhookEndpointWithSecretDto>;
    'webhooks.endpoint.test': Command<ByIdRequest, WebhookDeliveryDto>;
    'webhooks.legacy_endpoint.put': Command<LegacyWebhookDto, LegacyWebhookResultDto>;
    'webhooks.agent_webhooks.get': Command<{ agentId: string }, AgentWebhooksDto>;
    'webhooks.agent_webhooks.create': Command<AgentWebhooksCreateRequest, WebhookEndpointWithSecretDto>;
    'webhooks.agent_webhooks.update': Command<AgentWebhooksUpdateRequest, AgentWebhooksUpdatedDto>;
    'webhooks.agent_flag.set': Command<AgentFlagSetCommand, AgentFlagSetResult>;
    'webhooks.delivery.list': Command<ListWebhookDeliveriesRequest, WebhookDeliveryListDto>;
    'webhooks.delivery.get': Command<ByIdRequest, WebhookDeliveryDetailDto>;
    'webhooks.delivery.retry': Command<ByIdRequest, WebhookDeliveryDto>;
  }
}

type Same<A, B> = [A] extends [B] ? ([B] extends [A] ? true : false) : false;
type Assert<T extends true> = T;
/** Compiles only while every Subjects value but the pings has a ServiceCommands entry, and no more. */
export type CommandMapMatchesSubjects = Assert<
  Same<Exclude<NamedCommandSubject, HealthPingSubject>, keyof ServiceCommands>
>;
