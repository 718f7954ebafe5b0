/**
 * Who an agent's send_sms tool may text during a call: `caller`, the other party of the call only (the callee
 * of an outbound call, the caller of an inbound one); `any`, any number the model gives.
 */
export const SMS_RECIPIENT_RULES = ['caller', 'any'] as const;
export type SmsRecipientRule = (typeof SMS_RECIPIENT_RULES)[number];

/** Messages one call's agent may send with send_sms. */
export const SEND_SMS_MAX_PER_CALL = 3;
