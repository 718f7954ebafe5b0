import { MessagingTables1763800000000 } from './1763800000000-messaging-tables';
import { CallsCore1763800003000 } from './1763800003000-calls-core';
import { Telephony1763800006000 } from './1763800006000-telephony';
import { CarrierRecordings1763800007000 } from './1763800007000-carrier-recordings';
import { CallLifecycle1763800009100 } from './1763800009100-call-lifecycle';

/** Every migration of the calls schema, oldest first. */
export const MIGRATIONS = [
  MessagingTables1763800000000,
  CallsCore1763800003000,
  Telephony1763800006000,
  CarrierRecordings1763800007000,
  CallLifecycle1763800009100,
];
