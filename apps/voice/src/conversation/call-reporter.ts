import type {
  CustomFunctionInvokeReply,
  CustomFunctionSpec,
  KnowledgeSearchReply,
  VoiceToolCallRecord,
  VoiceTranscriptRequest,
} from '@vap/messages';

/**
 * What a live conversation tells the calls service (the owner of the call) and asks of it: the voice
 * service keeps no state of its own beyond the live session.
 */
export interface CallReporter {
  /** One line said on the call, in order. */
  transcript(line: Omit<VoiceTranscriptRequest, 'callId'>): Promise<void>;
  /** One tool invocation, recorded on the call's session (with the variables it set), in order. */
  toolCall(record: VoiceToolCallRecord): Promise<void>;
  /** Cold transfer through the carrier; false when the call had ended or the carrier refused. */
  transfer(to: string, reason: string): Promise<boolean>;
  /** The person asked not to be called again: their number joins the account's do-not-call list. */
  optOut(): Promise<void>;
  /** Keys for the far end through the carrier's REST API (the send_dtmf tool on carrier_a); true when sent. */
  sendDigits(digits: string): Promise<boolean>;
  /** Hang up through the carrier, with the call's end_call_reason. */
  hangup(reason: string): Promise<void>;
  /** The agent's knowledge base (agents service), for the search_knowledge_base tool. */
  searchKnowledge(query: string, limit: number): Promise<KnowledgeSearchReply>;
  /**
   * Runs one of the partner's functions (agents service) with the call's variables as they are now. Rejects
   * with Aborted when `signal` aborts first (the call ended): the conversation stops waiting for it.
   */
  invokeCustomFunction(
    spec: CustomFunctionSpec,
    args: Record<string, unknown>,
    variables: Record<string, unknown>,
    signal: AbortSignal,
  ): Promise<CustomFunctionInvokeReply>;
}
