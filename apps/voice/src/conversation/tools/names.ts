/** The built-in tools' model-facing names (a partner's function may take none of them). */
export const END_CALL_TOOL = 'end_call';
export const TRANSFER_CALL_TOOL = 'transfer_call';
export const SEARCH_KNOWLEDGE_TOOL = 'search_knowledge_base';
export const OPT_OUT_TOOL = 'opt_out';
export const SEND_SMS_TOOL = 'send_sms';
