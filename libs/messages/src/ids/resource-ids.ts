import { prefixedId } from './prefixed-id';

/** The prefixed ids of the API's resources; the rest (agents, calls, documents, ...) are bare UUIDs. */
export const CampaignId = prefixedId('cmp_');
export const ExtractionSetId = prefixedId('exs_');
export const CustomFunctionId = prefixedId('fn_');
export const PhoneNumberId = prefixedId('pn_');
export const CustomerId = prefixedId('cus_');
export const InboundRoutePolicyId = prefixedId('irp_');
/** `vc_` + the voice's UUID; an agent's voice_id is that UUID. */
export const VoiceConfigurationId = prefixedId('vc_');
export const DoNotCallId = prefixedId('dnc_');
/** `ilog_` + the integration log entry's UUID. */
export const IntegrationLogId = prefixedId('ilog_');
/** `hook_` + UUID: a lifecycle hook (pre-call or post-call) of an account or one of its agents. */
export const LifecycleHookId = prefixedId('hook_');
/** `pcred_` + UUID: an account's key for one speech provider. */
export const ProviderCredentialId = prefixedId('pcred_');
/** `tsc_` + UUID: a test scenario (a caller persona, its lines and what must hold). */
export const TestScenarioId = prefixedId('tsc_');
/** `trun_` + UUID: a test run (scenarios played against an agent). */
export const TestRunId = prefixedId('trun_');
/** `msg_` + UUID: an SMS sent or received on one of the account's numbers. */
export const MessageId = prefixedId('msg_');
/** `tcn_` + UUID: one of the account's carrier connections (the UUID is the connection_id calls and numbers name). */
export const TelephonyConnectionId = prefixedId('tcn_');
/** `ctr_` + UUID: a kind of external account an account's customers connect (OAuth 2.0 or an API key). */
export const ConnectorId = prefixedId('ctr_');
/** `cxn_` + UUID: one customer's connection to one connector. */
export const ConnectionId = prefixedId('cxn_');
