export * from './message.dto';
export * from './sms-segments';
export * from './sms-policy.dto';
