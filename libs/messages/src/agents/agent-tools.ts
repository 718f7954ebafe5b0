/**
 * The platform's own tools an agent's model may be offered during a call, defined once: the voice service offers
 * them from here (names, descriptions, parameter schemas, when), the API documents them from here
 * (GET /agent-tools) and answers an agent's effective list from here (GET /agent/{id}/tools). A new built-in tool
 * is one entry of BUILTIN_TOOL_CATALOG (and its runner in the voice service's tools/builtin.ts).
 */

import type { AgentSnapshot } from '../voice/agent-snapshot';
import { SEND_DTMF_MAX } from './dtmf';
import { SEND_SMS_MAX_PER_CALL } from './sms';
import { handoffToolName, type HandoffSnapshot } from './handoffs';

/** The built-in tools' model-facing names (a partner's function may take none of them). */
export const END_CALL_TOOL = 'end_call';
export const TRANSFER_CALL_TOOL = 'transfer_call';
export const SEARCH_KNOWLEDGE_TOOL = 'search_knowledge_base';
export const OPT_OUT_TOOL = 'opt_out';
export const SEND_DTMF_TOOL = 'send_dtmf';
export const SEND_SMS_TOOL = 'send_sms';

/** A tool's parameters: a JSON Schema object, as the model is given it (OpenAI function style). */
export type ToolParameters = Record<string, unknown>;

/** What the model is offered of one tool. */
export interface ToolDefinitionSpec {
  name: string;
  description: string;
  parameters: ToolParameters;
}

/** An agent field that shapes a tool, and how. */
export interface AgentToolSetting {
  /** The agent field (POST/PUT /agent), or a route for what is not a field (documents). */
  field: string;
  description: string;
}

/** One built-in tool of the catalog. */
export interface BuiltinToolDefinition {
  /** The model-facing name; what `tools` on an agent names. */
  name: string;
  /** For people (the console's label). */
  title: string;
  /** What the model is told. */
  description: string;
  /** The parameters in full (what GET /agent-tools documents). */
  parameters: ToolParameters;
  /** The parameters a call of this agent offers, where its settings narrow them; absent: `parameters`. */
  parametersFor?(agent: AgentSnapshot): ToolParameters;
  /** When the agent's settings offer it, in words. */
  offeredWhen: string;
  /** The agent fields that turn it on (all of them must); empty for a tool every call offers. */
  enabledBy: readonly string[];
  /** The agent fields that shape what it does. */
  settings: readonly AgentToolSetting[];
  /** Offered on every call whatever the agent's settings and `tools` say. */
  alwaysOffered: boolean;
  /** Whether the agent's settings turn it on (before the agent's `tools` list is applied). */
  enabled(agent: AgentSnapshot): boolean;
}

const noParameters: ToolParameters = { type: 'object', properties: {}, required: [] };

const reason = (description: string): ToolParameters => ({
  type: 'object',
  properties: { reason: { type: 'string', description } },
  required: [],
});

/** Every built-in tool with a fixed name, in the order they are offered (before handoffs and functions). */
export const BUILTIN_TOOL_CATALOG: readonly BuiltinToolDefinition[] = [
  {
    name: END_CALL_TOOL,
    title: 'End call',
    description: 'End the phone call. The agent says goodbye and hangs up.',
    parameters: reason('Why the call is ending'),
    offeredWhen: 'end_call_enabled is true (the default).',
    enabledBy: ['end_call_enabled'],
    settings: [
      { field: 'end_call_enabled', description: 'Turns the tool on.' },
      { field: 'end_call_message', description: 'Said before hanging up; null: the platform’s farewell.' },
      {
        field: 'end_call_instructions',
        description: 'When to end the call, added to the system prompt; null: a default line.',
      },
    ],
    alwaysOffered: false,
    enabled: (agent) => agent.endCallEnabled,
  },
  {
    name: TRANSFER_CALL_TOOL,
    title: 'Transfer to a person',
    description: 'Transfer the caller to a human colleague. The call leaves the agent.',
    parameters: reason('Why the caller is being transferred'),
    offeredWhen: 'transfer_enabled is true and transfer_number is set.',
    enabledBy: ['transfer_enabled', 'transfer_number'],
    settings: [
      { field: 'transfer_enabled', description: 'Turns the tool on.' },
      { field: 'transfer_number', description: 'Who the caller is transferred to (E.164).' },
      { field: 'transfer_message', description: 'Said before transferring; null: the platform’s words.' },
      {
        field: 'transfer_instructions',
        description: 'When to transfer, added to the system prompt; null: a default line.',
      },
      { field: 'transfer_mode', description: 'cold, warm (a briefing first) or warm_handback.' },
      {
        field: 'transfer_briefing_instructions',
        description: 'Warm modes: what the briefing the human hears covers.',
      },
      {
        field: 'transfer_ring_timeout_secs',
        description:
          'Warm modes: how long the human’s phone rings before the transfer counts as not answered.',
      },
    ],
    alwaysOffered: false,
    enabled: (agent) => agent.transferEnabled && !!agent.transferNumber,
  },
  {
    name: SEARCH_KNOWLEDGE_TOOL,
    title: 'Knowledge base search',
    description: "Search the company's knowledge base for facts to answer the caller.",
    parameters: {
      type: 'object',
      properties: { query: { type: 'string', description: 'What to look up, in a few words' } },
      required: ['query'],
    },
    offeredWhen: 'documents are linked to the agent (POST /agent/{id}/documents).',
    enabledBy: ['documents'],
    settings: [
      {
        field: 'documents',
        description: 'The knowledge the tool searches (linked with /agent/{id}/documents).',
      },
      { field: 'kb_threshold', description: 'The relevance cut-off of the results.' },
      { field: 'kb_include_summaries', description: 'Whether document summaries are in the results.' },
      { field: 'kb_result_format', description: 'How each result is written for the model.' },
    ],
    alwaysOffered: false,
    enabled: (agent) => agent.hasKnowledge,
  },
  {
    name: OPT_OUT_TOOL,
    title: 'Do-not-call request',
    description:
      'The person asks not to be called again. Their number joins the do-not-call list and the call ends politely.',
    parameters: noParameters,
    offeredWhen:
      'always: honouring a request not to be called again is a compliance duty, so no setting and no `tools` ' +
      'list removes it.',
    enabledBy: [],
    settings: [],
    alwaysOffered: true,
    enabled: () => true,
  },
  {
    name: SEND_DTMF_TOOL,
    title: 'Press keys',
    description:
      'Press keys on the phone keypad, e.g. to choose an option of an automated phone menu ("press 2 for ' +
      'sales") or to enter a number it asks for. Say nothing to a menu; just press.',
    parameters: {
      type: 'object',
      properties: {
        digits: {
          type: 'string',
          description: `The keys, in order: 0-9, *, #, A-D; w waits half a second. At most ${SEND_DTMF_MAX}.`,
        },
      },
      required: ['digits'],
    },
    offeredWhen: 'send_dtmf_enabled is true.',
    enabledBy: ['send_dtmf_enabled'],
    settings: [{ field: 'send_dtmf_enabled', description: 'Turns the tool on.' }],
    alwaysOffered: false,
    enabled: (agent) => agent.sendDtmfEnabled === true,
  },
  {
    name: SEND_SMS_TOOL,
    title: 'Send a text message',
    description:
      'Send a text message (SMS), by default to the person on the call, for example a confirmation, an address ' +
      `or a link. At most ${SEND_SMS_MAX_PER_CALL} per call.`,
    parameters: smsParameters(true),
    // An agent that may text only the person on the call is not offered a recipient to fill in.
    parametersFor: (agent) => smsParameters(agent.smsAllowedRecipients === 'any'),
    offeredWhen: 'sms_enabled is true (sent from the call’s own number, contact policy applied).',
    enabledBy: ['sms_enabled'],
    settings: [
      { field: 'sms_enabled', description: 'Turns the tool on.' },
      {
        field: 'sms_allowed_recipients',
        description: 'caller: only the other party of the call; any: also a number the model gives.',
      },
    ],
    alwaysOffered: false,
    enabled: (agent) => agent.smsEnabled === true,
  },
];

function smsParameters(anyRecipient: boolean): ToolParameters {
  return {
    type: 'object',
    properties: {
      body: { type: 'string', description: 'The text of the message, up to 1600 characters' },
      ...(anyRecipient
        ? {
            to: {
              type: 'string',
              description:
                'Another number in international form (+ and digits), when the agent may text other ' +
                'numbers; omit for the person on the call',
            },
          }
        : {}),
    },
    required: ['body'],
  };
}

/** The built-in tools' names, in catalog order: what an agent's `tools` may name. */
export const BUILTIN_TOOL_NAMES: readonly string[] = BUILTIN_TOOL_CATALOG.map((t) => t.name);

/** The catalog entry of a built-in tool, or undefined. */
export function builtinToolDefinition(name: string): BuiltinToolDefinition | undefined {
  return BUILTIN_TOOL_CATALOG.find((t) => t.name === name);
}

/** What the model is offered of a built-in tool. */
export function builtinToolSpec(
  definition: BuiltinToolDefinition,
  agent?: AgentSnapshot,
): ToolDefinitionSpec {
  const parameters =
    agent && definition.parametersFor ? definition.parametersFor(agent) : definition.parameters;
  return { name: definition.name, description: definition.description, parameters };
}

/**
 * Whether a call of this agent offers the built-in tool: its settings turn it on, and the agent's `tools` list
 * (null or absent: every tool) names it; a tool every call offers is offered whatever the list says.
 */
export function builtinToolOffered(definition: BuiltinToolDefinition, agent: AgentSnapshot): boolean {
  if (definition.alwaysOffered) return true;
  const allowed = agent.tools == null || agent.tools.includes(definition.name);
  return allowed && definition.enabled(agent);
}

/** Whether a call of this agent offers the built-in tool of that name (false for a name not in the catalog). */
export function offersBuiltinTool(agent: AgentSnapshot, name: string): boolean {
  const definition = builtinToolDefinition(name);
  return !!definition && builtinToolOffered(definition, agent);
}

/** handoff_to_<name>: one tool per destination of the agent's handoffs. */
export const HANDOFF_TOOL_NAME_TEMPLATE = handoffToolName('{name}');
export const HANDOFF_TOOL_TITLE = 'Hand off to another agent';

/** What the handoff tool's `summary` argument asks the model for (context_mode summary). */
export const SUMMARY_ARGUMENT_DESCRIPTION =
  'For the colleague who takes the call over: who the caller is, what they want, and what has been said or ' +
  'done. Two to four sentences, plain text.';

const HANDOFF_REASON = { type: 'string', description: 'Why the caller is handed over' };

/** The handoff tool's description for a destination of this name and description. */
export function handoffToolDescription(name: string, description: string): string {
  return (
    `Hand the caller over to a colleague (${name}), who takes the conversation from here. ` +
    `When: ${description} Tell the caller first.`
  );
}

/** What the model is offered for one destination of the agent's handoffs. */
export function handoffToolSpec(handoff: Pick<HandoffSnapshot, 'name' | 'description' | 'contextMode'>) {
  return {
    name: handoffToolName(handoff.name),
    description: handoffToolDescription(handoff.name, handoff.description),
    // In summary mode the summary is written in this call, in the same model round.
    parameters:
      handoff.contextMode === 'summary'
        ? {
            type: 'object',
            properties: {
              reason: HANDOFF_REASON,
              summary: { type: 'string', description: SUMMARY_ARGUMENT_DESCRIPTION },
            },
            required: ['summary'],
          }
        : { type: 'object', properties: { reason: HANDOFF_REASON }, required: [] },
  } satisfies ToolDefinitionSpec;
}

/** Where an offered tool comes from. */
export type OfferedToolKind = 'builtin' | 'handoff' | 'custom';

/** One tool a call of the agent offers its model, in the order offered. */
export interface OfferedTool extends ToolDefinitionSpec {
  kind: OfferedToolKind;
  /** The partner's function behind a custom tool; null otherwise. */
  functionId: string | null;
  /** The destination agent of a handoff; null otherwise. */
  handoffAgentId: string | null;
}

/** A built-in tool the agent's calls do not offer, and why. */
export interface WithheldTool {
  name: string;
  /** settings: its settings do not turn it on; tools: the agent's `tools` list leaves it out. */
  reasons: ('settings' | 'tools')[];
}

/**
 * The tools a call of this agent offers its model, in order: the built-in tools its settings enable and its
 * `tools` list allows, its handoffs, then the partner's functions attached to it. A function may never take a
 * built-in tool's or a handoff's name (the agents service refuses it); a snapshot that carries one anyway keeps
 * the built-in tool (or the handoff).
 */
export function offeredTools(agent: AgentSnapshot): OfferedTool[] {
  const builtins = BUILTIN_TOOL_CATALOG.filter((d) => builtinToolOffered(d, agent)).map((d): OfferedTool => ({
    ...builtinToolSpec(d, agent),
    kind: 'builtin',
    functionId: null,
    handoffAgentId: null,
  }));
  const handoffs = (agent.handoffs ?? []).map((h): OfferedTool => ({
    ...handoffToolSpec(h),
    kind: 'handoff',
    functionId: null,
    handoffAgentId: h.agentId,
  }));
  const taken = new Set([...BUILTIN_TOOL_NAMES, ...handoffs.map((h) => h.name)]);
  const functions = (agent.customFunctions ?? [])
    .filter((f) => !taken.has(f.name))
    .map((f): OfferedTool => ({
      name: f.name,
      description: f.description,
      parameters: f.parameters,
      kind: 'custom',
      functionId: f.id,
      handoffAgentId: null,
    }));
  const seen = new Set<string>();
  // One tool per name, the first kept.
  return [...builtins, ...handoffs, ...functions].filter((t) => !seen.has(t.name) && !!seen.add(t.name));
}

/** The built-in tools this agent's calls do not offer, each with why. */
export function withheldTools(agent: AgentSnapshot): WithheldTool[] {
  return BUILTIN_TOOL_CATALOG.filter((d) => !builtinToolOffered(d, agent)).map((d) => {
    const reasons: WithheldTool['reasons'] = [];
    if (!d.enabled(agent)) reasons.push('settings');
    if (agent.tools != null && !agent.tools.includes(d.name)) reasons.push('tools');
    return { name: d.name, reasons };
  });
}

/** Why a name may not be in an agent's `tools`, or null when it may. */
export function agentToolNameProblem(name: unknown): string | null {
  if (typeof name === 'string' && BUILTIN_TOOL_NAMES.includes(name)) return null;
  const shown = (typeof name === 'string' ? `"${name}"` : String(JSON.stringify(name ?? null))).slice(0, 66);
  return (
    `tools names an unknown tool: ${shown}; it takes the built-in tools of GET /agent-tools ` +
    `(${BUILTIN_TOOL_NAMES.join(', ')}). Handoffs come from handoffs and custom functions from ` +
    '/agent/{id}/custom-functions.'
  );
}
