// The built-in tools' model-facing names come from the agent tool catalog (@vap/messages, agents/agent-tools.ts).
export {
  END_CALL_TOOL,
  OPT_OUT_TOOL,
  SEARCH_KNOWLEDGE_TOOL,
  SEND_DTMF_TOOL,
  SEND_SMS_TOOL,
  TRANSFER_CALL_TOOL,
} from '@vap/messages';
