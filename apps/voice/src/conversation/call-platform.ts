import type {
  TransferOutcome,
  CustomFunctionInvokeReply,
  CustomFunctionSnapshot,
  KnowledgeSearchReply,
  VoiceHandoffReply,
  VoiceSendSmsReply,
  VoiceToolCallRecord,
  VoiceTranscriptRequest,
} from '@vap/messages';

// The platform as one call sees it. The voice service keeps no state of its own beyond the live session: what
// the call says and does is recorded by the calls service (the owner of the call), acted on the carrier through
// it, and the agent's knowledge and partner functions are the agents service's. One interface per role, so a unit
// asks only for the role it uses.

/** What the call said and did, recorded on the call's session in order. */
export interface CallRecord {
  /** One line said on the call, in order. */
  transcript(line: Omit<VoiceTranscriptRequest, 'callId'>): Promise<void>;
  /** One tool invocation, recorded on the call's session (with the variables it set), in order. */
  toolCall(record: VoiceToolCallRecord): Promise<void>;
}

/** The call's leg on the carrier, acted on through the calls service. */
export interface CallCarrier {
  /** Cold transfer through the carrier; false when the call had ended or the carrier refused. */
  transfer(to: string, reason: string): Promise<boolean>;
  /**
   * Warm transfer: the calls service dials `to` and the agent briefs the human there with `briefing`; true when
   * the human's leg is being dialed (the outcome comes later, as voice.session.transfer_outcome).
   */
  warmTransfer(to: string, reason: string, briefing: string): Promise<boolean>;
  /** The agent stopped waiting for its warm transfer: the human's leg is hung up; answers how it ended. */
  withdrawTransfer(): Promise<TransferOutcome | null>;
  /** Keys for the far end through the carrier's REST API (the send_dtmf tool on carrier_a); true when sent. */
  sendDigits(digits: string): Promise<boolean>;
  /** Hang up through the carrier, with the call's end_call_reason. */
  hangup(reason: string): Promise<void>;
  /** The person asked not to be called again: their number joins the account's do-not-call list. */
  optOut(): Promise<void>;
}

/** The agents that may hold the call, asked of the calls service (which records who held it). */
export interface CallAgents {
  /**
   * Hands the call to `agentId`, one of the current agent's handoffs: answers the next agent's snapshot, and the
   * agent's services (knowledge, functions) are that agent's from then on.
   */
  handOff(agentId: string, reason: string): Promise<VoiceHandoffReply>;
}

/** The agent's services that tools use: knowledge and functions (agents service), messages (calls service). */
export interface AgentServices {
  /**
   * Texts `to` (null: the other party of the call) from the call's number, as the calls service allows the
   * agent (send_sms); answers whether it was queued, or why not.
   */
  sendSms(to: string | null, body: string): Promise<VoiceSendSmsReply>;
  /** The agent's knowledge base, for the search_knowledge_base tool. */
  searchKnowledge(query: string, limit: number): Promise<KnowledgeSearchReply>;
  /**
   * Runs one of the partner's functions with the call's variables as they are now. Rejects with Aborted when
   * `signal` aborts first (the call ended): the conversation stops waiting for it.
   */
  invokeCustomFunction(
    spec: CustomFunctionSnapshot,
    args: Record<string, unknown>,
    variables: Record<string, unknown>,
    signal: AbortSignal,
  ): Promise<CustomFunctionInvokeReply>;
}

/** Everything a live call asks of the platform. */
export interface CallPlatform extends CallRecord, CallCarrier, CallAgents, AgentServices {}
