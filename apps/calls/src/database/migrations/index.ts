import { MessagingTables1763800000000 } from './1763800000000-messaging-tables';
import { CallsCore1763800003000 } from './1763800003000-calls-core';
import { Telephony1763800006000 } from './1763800006000-telephony';
import { CarrierRecordings1763800007000 } from './1763800007000-carrier-recordings';
import { StartCallKeys1763800008000 } from './1763800008000-start-call-keys';
import { CallCharges1763800009100 } from './1763800009100-call-charges';
import { CallLifecycle1763800009200 } from './1763800009200-call-lifecycle';
import { InboxPruneIndex1763900010000 } from './1763900010000-inbox-prune-index';
import { PartnerStanding1763900020000 } from './1763900020000-partner-standing';
import { PartnerBalanceVersion1764000010000 } from './1764000010000-partner-balance-version';
import { SessionMediaStream1764100020000 } from './1764100020000-session-media-stream';
import { MediaStreamClaims1764100010000 } from './1764100010000-media-stream-claims';
import { ContactPolicy1764200010000 } from './1764200010000-contact-policy';
import { PartnerActiveCalls1764300010000 } from './1764300010000-partner-active-calls';
import { PartnerStandingConcurrency1764400010000 } from './1764400010000-partner-standing-concurrency';
import { SessionVoiceReplica1764560010000 } from './1764560010000-session-voice-replica';
import { DropCallOwner1764700010000 } from './1764700010000-drop-call-owner';
import { CarrierSilenceCheck1764700020000 } from './1764700020000-carrier-silence-check';
import { BrowserSessions1764800010000 } from './1764800010000-browser-sessions';
import { LifecycleHooks1764900030000 } from './1764900030000-lifecycle-hooks';
import { SessionToolCalls1764900050000 } from './1764900050000-session-tool-calls';
import { CallBillingAttribution1765000010000 } from './1765000010000-call-billing-attribution';
import { CallDialStart1765100010000 } from './1765100010000-call-dial-start';
import { CallPlatformSpeech1765200050000 } from './1765200050000-call-platform-speech';
import { BrowserSessionLastRefusal1765300070000 } from './1765300070000-browser-session-last-refusal';
import { SessionAnalysis1765400010000 } from './1765400010000-session-analysis';
import { CallHandoffs1765400020000 } from './1765400020000-call-handoffs';
import { CallBillingRate1765400030000 } from './1765400030000-call-billing-rate';
import { PartnerRateCard1765400600000 } from './1765400600000-partner-rate-card';
import { CallTransfer1765400040000 } from './1765400040000-call-transfer';
import { Messages1765400200000 } from './1765400200000-messages';
import { ConnectionHealth1765400300000 } from './1765400300000-connection-health';
import { CallCustomer1765400100100 } from './1765400100100-call-customer';
import { SmsPolicies1765500100000 } from './1765500100000-sms-policies';
import { PartnerStandingReseller1765500300000 } from './1765500300000-partner-standing-reseller';
import { CallModelPaidBy1765600200000 } from './1765600200000-call-model-paid-by';
import { MediaStreamClaimAttempt1765600300000 } from './1765600300000-media-stream-claim-attempt';

/** Every migration of the calls schema, oldest first. */
export const MIGRATIONS = [
  MessagingTables1763800000000,
  CallsCore1763800003000,
  Telephony1763800006000,
  CarrierRecordings1763800007000,
  StartCallKeys1763800008000,
  CallCharges1763800009100,
  CallLifecycle1763800009200,
  InboxPruneIndex1763900010000,
  PartnerStanding1763900020000,
  PartnerBalanceVersion1764000010000,
  MediaStreamClaims1764100010000,
  SessionMediaStream1764100020000,
  ContactPolicy1764200010000,
  PartnerActiveCalls1764300010000,
  PartnerStandingConcurrency1764400010000,
  SessionVoiceReplica1764560010000,
  DropCallOwner1764700010000,
  CarrierSilenceCheck1764700020000,
  BrowserSessions1764800010000,
  LifecycleHooks1764900030000,
  SessionToolCalls1764900050000,
  CallBillingAttribution1765000010000,
  CallDialStart1765100010000,
  CallPlatformSpeech1765200050000,
  BrowserSessionLastRefusal1765300070000,
  SessionAnalysis1765400010000,
  CallHandoffs1765400020000,
  CallBillingRate1765400030000,
  CallTransfer1765400040000,
  Messages1765400200000,
  ConnectionHealth1765400300000,
  CallCustomer1765400100100,
  PartnerRateCard1765400600000,
  SmsPolicies1765500100000,
  PartnerStandingReseller1765500300000,
  CallModelPaidBy1765600200000,
  MediaStreamClaimAttempt1765600300000,
];
