// The platform's other services as the voice service sees them, reduced to what a benchmark needs. As the
// calls service it answers calls.voice.attach with the call's context, acks the transcript, hang-up, transfer
// and ended reports, answers calls.voice.handoff with the agents registered for it, and keeps what they said (the
// agent turns' latency parts above all); as the agents service
// it answers agents.speech.plan with the speech each call runs on (the benchmark's plan). Replies use
// the platform's RPC envelope (RpcRequest in, RpcReply out, JSON), so the voice service's RpcClient reads them
// as it reads the real ones.
import { NatsConnection, Msg, Subscription } from 'nats';
import {
  AppError,
  CommandMap,
  RpcReply,
  RpcRequest,
  SpeechPlan,
  SpeechPlanRequest,
  Subjects,
  TurnLatency,
  VoiceCallContext,
  VoiceEndedRequest,
  VoiceHandoffReply,
  VoiceHandoffRequest,
  VoiceHangupRequest,
  VoiceToolCallRequest,
  VoiceTranscriptRequest,
  VoiceTransferRequest,
} from '@vap/messages';

type AnsweredSubject =
  | 'calls.voice.attach'
  | 'calls.voice.transcript'
  | 'calls.voice.transfer'
  | 'calls.voice.hangup'
  | 'calls.voice.ended'
  | 'calls.voice.tool_call'
  | 'calls.voice.handoff'
  | 'agents.speech.plan';

/** The wire subject of a logical one under a deployment's NATS_SUBJECT_PREFIX (as NatsConnectionService builds it). */
export function wireSubject(prefix: string, logical: string): string {
  return prefix ? `${prefix}.${logical}` : logical;
}

/** One agent turn that answered the caller, as the voice service reported it. */
export interface ReportedTurn {
  callId: string;
  latency: TurnLatency;
  /** When the report arrived (performance.now() of this process). */
  receivedAt: number;
}

export interface FakePlatformResponder {
  /** Makes a call known: attach answers its context until it is forgotten. */
  register(context: VoiceCallContext): void;
  forget(callId: string): void;
  /** Makes an agent a handoff may go to: calls.voice.handoff answers it (unknown agents are 404). */
  registerAgent(agent: VoiceHandoffReply): void;
  /** Handoffs the voice service asked for, each with when it arrived (performance.now() of this process). */
  readonly handoffs: (VoiceHandoffRequest & { receivedAt: number })[];
  readonly attaches: Map<string, number>;
  readonly transcripts: VoiceTranscriptRequest[];
  readonly turns: ReportedTurn[];
  readonly hangups: VoiceHangupRequest[];
  readonly transfers: VoiceTransferRequest[];
  readonly ended: Map<string, VoiceEndedRequest>;
  /** Tool invocations the voice service recorded on its calls (partner functions' outcomes among them). */
  readonly toolCalls: VoiceToolCallRequest[];
  /** Attach requests for calls it did not know, or of the other transport (answered 404). */
  unknownAttaches: number;
  /** Attaches of browser sessions (carrier `browser`), and the `origin` header the last one carried. */
  browserAttaches: number;
  lastBrowserOrigin: string | undefined;
  /** Speech plan requests (the voice service makes one as each call's media starts). */
  planLookups: number;
  /** Forgets every report, keeping the registered calls (between benchmark rounds). */
  resetReports(): void;
  close(): Promise<void>;
}

/** The speech plan the agents service would resolve for a call (its request names the call). */
export type SpeechPlanner = (request: SpeechPlanRequest) => SpeechPlan;

/**
 * Subscribes the commands under `prefix` on `nc`. `plan` answers agents.speech.plan for every call; null leaves
 * the plan to a real agents service on the same prefix.
 */
export async function startFakePlatformResponder(
  nc: NatsConnection,
  prefix: string,
  plan: SpeechPlanner | null,
): Promise<FakePlatformResponder> {
  const contexts = new Map<string, VoiceCallContext>();
  const agents = new Map<string, VoiceHandoffReply>();
  const subscriptions: Subscription[] = [];
  const responder: FakePlatformResponder = {
    register: (context) => void contexts.set(context.callId, context),
    forget: (callId) => void contexts.delete(callId),
    registerAgent: (agent) => void agents.set(agent.agentId, agent),
    handoffs: [],
    attaches: new Map(),
    transcripts: [],
    turns: [],
    hangups: [],
    transfers: [],
    ended: new Map(),
    toolCalls: [],
    unknownAttaches: 0,
    browserAttaches: 0,
    lastBrowserOrigin: undefined,
    planLookups: 0,
    resetReports() {
      responder.attaches.clear();
      responder.transcripts.length = 0;
      responder.turns.length = 0;
      responder.hangups.length = 0;
      responder.transfers.length = 0;
      responder.ended.clear();
      responder.toolCalls.length = 0;
      responder.handoffs.length = 0;
      responder.unknownAttaches = 0;
      responder.browserAttaches = 0;
      responder.lastBrowserOrigin = undefined;
      responder.planLookups = 0;
    },
    async close() {
      await Promise.all(subscriptions.map((s) => s.drain().catch(() => undefined)));
    },
  };

  const handle = <S extends AnsweredSubject>(
    logical: S,
    answer: (data: CommandMap[S]['request']) => CommandMap[S]['reply'],
  ) => {
    subscriptions.push(
      nc.subscribe(wireSubject(prefix, logical), {
        callback: (err, msg) => {
          if (!err) respond(msg, answer);
        },
      }),
    );
  };

  handle(Subjects.calls.voiceAttach, (data) => {
    const context = contexts.get(data.callId);
    // As the calls service: a browser stream attaches a browser session (provider `browser`), a carrier's
    // stream a phone call, and neither finds the other.
    if (!context || (data.carrier === 'browser') !== (context.provider === 'browser')) {
      responder.unknownAttaches++;
      throw AppError.notFound('Call');
    }
    responder.attaches.set(data.callId, (responder.attaches.get(data.callId) ?? 0) + 1);
    if (data.carrier === 'browser') {
      responder.browserAttaches++;
      responder.lastBrowserOrigin = data.headers.origin;
    }
    return context;
  });
  handle(Subjects.calls.voiceTranscript, (data) => {
    responder.transcripts.push(data);
    if (data.role === 'bot' && data.latency) {
      responder.turns.push({ callId: data.callId, latency: data.latency, receivedAt: performance.now() });
    }
    return { ok: true };
  });
  handle(Subjects.calls.voiceTransfer, (data) => {
    responder.transfers.push(data);
    return { transferred: true };
  });
  handle(Subjects.calls.voiceHangup, (data) => {
    responder.hangups.push(data);
    return { ok: true };
  });
  handle(Subjects.calls.voiceEnded, (data) => {
    responder.ended.set(data.callId, data);
    return { ok: true };
  });
  handle(Subjects.calls.voiceToolCall, (data) => {
    responder.toolCalls.push(data);
    return { ok: true };
  });
  handle(Subjects.calls.voiceHandoff, (data) => {
    responder.handoffs.push({ ...data, receivedAt: performance.now() });
    const agent = agents.get(data.agentId);
    if (!agent || !contexts.has(data.callId)) throw AppError.notFound('Agent');
    return agent;
  });
  if (plan) {
    handle(Subjects.agents.speechPlan, (data) => {
      responder.planLookups++;
      return plan(data);
    });
  }
  await nc.flush();
  return responder;
}

function respond<T, R>(msg: Msg, answer: (data: T) => R): void {
  let reply: RpcReply<R>;
  try {
    const request = JSON.parse(new TextDecoder().decode(msg.data)) as RpcRequest<T>;
    reply = { ok: true, data: answer(request.data) };
  } catch (err) {
    const error = err instanceof AppError ? err : AppError.internal((err as Error).message);
    reply = { ok: false, error: error.toPayload() };
  }
  if (msg.reply) msg.respond(new TextEncoder().encode(JSON.stringify(reply)));
}
