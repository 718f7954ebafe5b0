import { ApiProperty } from '@nestjs/swagger';
import { ValidateBy } from 'class-validator';
import {
  agentToolNameProblem,
  BUILTIN_TOOL_CATALOG,
  HANDOFF_LIMITS,
  HANDOFF_TOOL_NAME_TEMPLATE,
  HANDOFF_TOOL_TITLE,
  handoffToolName,
  handoffToolSpec,
  offeredTools,
  OPT_OUT_TOOL,
  withheldTools,
  type AgentSnapshot,
  type BuiltinToolDefinition,
  type OfferedToolKind,
  type WithheldTool,
} from '@vap/messages';

/** The agent's `tools` field, as its docs say it. */
export const AGENT_TOOLS_DESCRIPTION =
  'The built-in tools the model may be offered (names from GET /agent-tools); each is still offered only when its ' +
  'settings turn it on (end_call_enabled, transfer_enabled with transfer_number, linked documents, ' +
  `send_dtmf_enabled). null = every built-in tool its settings turn on. ${OPT_OUT_TOOL} is offered on every call ` +
  'whatever the list says: honouring a request not to be called again is a compliance duty. Handoffs and custom ' +
  'functions are not named here: they are offered as the agent’s handoffs and attached functions say. ' +
  'GET /agent/{id}/tools answers what the model is offered.';

/** Bound of the list's length (the catalog's names are distinct, so a valid list is never longer). */
export const AGENT_TOOLS_MAX = 32;

/** Every entry of `tools` names a built-in tool of the catalog; the message names the first that does not. */
export function IsAgentToolNames() {
  const firstProblem = (value: unknown): string | null => {
    if (!Array.isArray(value)) return null;
    for (const name of value) {
      const problem = agentToolNameProblem(name);
      if (problem) return problem;
    }
    return null;
  };
  return ValidateBy({
    name: 'isAgentToolNames',
    validator: {
      validate: (value: unknown) => firstProblem(value) === null,
      defaultMessage: (args) => firstProblem(args?.value) ?? 'tools names an unknown tool',
    },
  });
}

/** An agent field that shapes a tool. */
export class AgentToolSettingDto {
  @ApiProperty({ example: 'transfer_number', description: 'The agent field (POST/PUT /agent)' })
  field: string;

  @ApiProperty({ description: 'How it shapes the tool' })
  description: string;
}

const AGENT_TOOL_KINDS = ['builtin', 'handoff'] as const;

/** One tool of the catalog. */
export class AgentToolDto {
  @ApiProperty({
    example: 'transfer_call',
    description: `The name the model calls it by; ${HANDOFF_TOOL_NAME_TEMPLATE} for a handoff, one per destination`,
  })
  name: string;

  @ApiProperty({ enum: AGENT_TOOL_KINDS, description: 'builtin: a fixed tool; handoff: one per handoff' })
  kind: (typeof AGENT_TOOL_KINDS)[number];

  @ApiProperty({ example: 'Transfer to a person', description: 'For people' })
  title: string;

  @ApiProperty({
    description:
      'What the model is told. A handoff’s names its destination and the destination’s description ({name}, ' +
      '{description})',
  })
  description: string;

  @ApiProperty({
    type: 'object',
    additionalProperties: true,
    description:
      'The JSON Schema of its arguments, as the model sees it. A handoff whose context_mode is summary also ' +
      'takes a required `summary` argument (GET /agent/{id}/tools shows the exact schema).',
  })
  parameters: Record<string, unknown>;

  @ApiProperty({ description: 'When the agent’s settings offer it' })
  offered_when: string;

  @ApiProperty({
    type: [String],
    example: ['transfer_enabled', 'transfer_number'],
    description: 'The agent fields that turn it on (all of them must); [] for a tool every call offers',
  })
  enabled_by: string[];

  @ApiProperty({ type: [AgentToolSettingDto], description: 'The agent fields that shape what it does' })
  settings: AgentToolSettingDto[];

  @ApiProperty({ description: 'Offered on every call whatever the agent’s settings and tools say (opt_out)' })
  always_offered: boolean;

  @ApiProperty({ description: 'Whether the agent’s `tools` field may name it' })
  selectable: boolean;
}

/** How an agent's custom functions reach its model. */
export class AgentToolCustomFunctionsDto {
  @ApiProperty()
  offered_when: string;

  @ApiProperty()
  description: string;
}

/** GET /agent-tools. */
export class AgentToolCatalogDto {
  @ApiProperty({ type: [AgentToolDto], description: 'In the order a call offers them' })
  tools: AgentToolDto[];

  @ApiProperty({
    type: AgentToolCustomFunctionsDto,
    description: 'The partner’s own tools, offered after these',
  })
  custom_functions: AgentToolCustomFunctionsDto;
}

const OFFERED_KINDS: readonly OfferedToolKind[] = ['builtin', 'handoff', 'custom'];

/** One tool a call of the agent offers its model. */
export class AgentEffectiveToolDto {
  @ApiProperty({ example: 'check_order_status' })
  name: string;

  @ApiProperty({ enum: OFFERED_KINDS })
  kind: OfferedToolKind;

  @ApiProperty({ description: 'What the model is told' })
  description: string;

  @ApiProperty({ type: 'object', additionalProperties: true, description: 'The JSON Schema the model sees' })
  parameters: Record<string, unknown>;

  @ApiProperty({
    type: String,
    nullable: true,
    example: 'fn_0b7f3c52-8f0e-4d57-9a51-6a1f0e2b7c11',
    description: 'A custom function’s id; null otherwise',
  })
  function_id: string | null;

  @ApiProperty({
    type: String,
    format: 'uuid',
    nullable: true,
    description: 'A handoff’s destination agent; null otherwise',
  })
  handoff_agent_id: string | null;
}

const WITHHELD_REASONS: readonly WithheldTool['reasons'][number][] = ['settings', 'tools'];

/** A built-in tool the agent's calls do not offer. */
export class AgentWithheldToolDto {
  @ApiProperty({ example: 'transfer_call' })
  name: string;

  @ApiProperty({
    enum: WITHHELD_REASONS,
    isArray: true,
    description:
      'settings: its settings do not turn it on (enabled_by); tools: the agent’s tools leaves it out',
  })
  reasons: WithheldTool['reasons'];
}

/** GET /agent/{id}/tools. */
export class AgentEffectiveToolsDto {
  @ApiProperty({ format: 'uuid' })
  agent_id: string;

  @ApiProperty({
    type: [String],
    nullable: true,
    description: 'The agent’s tools field (null: every built-in tool its settings turn on)',
  })
  allowed: string[] | null;

  @ApiProperty({
    type: [AgentEffectiveToolDto],
    description:
      'What a call of the agent starting now offers its model, in order: built-in tools, handoffs, custom functions',
  })
  tools: AgentEffectiveToolDto[];

  @ApiProperty({ type: [AgentWithheldToolDto], description: 'The built-in tools it does not offer, and why' })
  withheld: AgentWithheldToolDto[];
}

function builtinEntry(d: BuiltinToolDefinition): AgentToolDto {
  return {
    name: d.name,
    kind: 'builtin',
    title: d.title,
    description: d.description,
    parameters: d.parameters,
    offered_when: d.offeredWhen,
    enabled_by: [...d.enabledBy],
    settings: d.settings.map((s) => ({ field: s.field, description: s.description })),
    always_offered: d.alwaysOffered,
    selectable: true,
  };
}

const HANDOFF_ENTRY: AgentToolDto = {
  name: HANDOFF_TOOL_NAME_TEMPLATE,
  kind: 'handoff',
  title: HANDOFF_TOOL_TITLE,
  ...(() => {
    const { description, parameters } = handoffToolSpec({
      name: '{name}',
      description: '{description}',
      contextMode: 'full',
    });
    return { description, parameters };
  })(),
  offered_when: 'once per destination of the agent’s handoffs, named by its name.',
  enabled_by: ['handoffs'],
  settings: [
    { field: 'handoffs[].name', description: 'The tool’s name is handoff_to_<name>.' },
    { field: 'handoffs[].description', description: 'When to hand off, in the model’s description.' },
    {
      field: 'handoffs[].context_mode',
      description: 'summary adds a required summary argument the model writes for the next agent.',
    },
  ],
  always_offered: false,
  selectable: false,
};

const HANDOFF_PREFIX = handoffToolName('');

/** The catalog as GET /agent-tools answers it: the built-in tools, then the handoff tool. */
export function agentToolCatalog(): AgentToolCatalogDto {
  return {
    tools: [...BUILTIN_TOOL_CATALOG.map(builtinEntry), HANDOFF_ENTRY],
    custom_functions: {
      offered_when:
        'attached to the agent (POST /agent/{id}/custom-functions/{function_id}), after the built-in tools and handoffs.',
      description:
        'Each of the partner’s functions is offered with its own name, description and parameters ' +
        '(/custom-functions). GET /agent/{id}/tools lists every tool an agent offers, these included.',
    },
  };
}

/** One catalog entry by name: a built-in tool's, or the handoff tool's for handoff_to_<anything>. */
export function agentToolOf(name: string): AgentToolDto | undefined {
  const entry = BUILTIN_TOOL_CATALOG.find((d) => d.name === name);
  if (entry) return builtinEntry(entry);
  const destination = name.startsWith(HANDOFF_PREFIX) ? name.slice(HANDOFF_PREFIX.length) : null;
  return name === HANDOFF_TOOL_NAME_TEMPLATE ||
    (destination !== null && HANDOFF_LIMITS.name.test(destination))
    ? HANDOFF_ENTRY
    : undefined;
}

/** What GET /agent/{id}/tools answers for the snapshot a call of the agent would take now. */
export function agentEffectiveToolsOf(agentId: string, agent: AgentSnapshot): AgentEffectiveToolsDto {
  return {
    agent_id: agentId,
    allowed: agent.tools ?? null,
    tools: offeredTools(agent).map((t) => ({
      name: t.name,
      kind: t.kind,
      description: t.description,
      parameters: t.parameters,
      function_id: t.functionId,
      handoff_agent_id: t.handoffAgentId,
    })),
    withheld: withheldTools(agent),
  };
}
