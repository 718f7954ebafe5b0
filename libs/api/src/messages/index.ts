export * from './message.dto';
export * from './sms-segments';
