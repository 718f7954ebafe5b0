// The agent builder's form state (a draft), made from an agent record or the API's defaults, and the request
// body made from it: exactly the shapes the API's agent validators accept, only the fields that changed.
import type { FieldError } from '../../api.js';
import type { CatalogModel } from '../../components/models.js';
import { ModelDraft, modelDraft, modelValues } from './agent-model.js';

// The API's rules, as the agent validators (libs/api agents DTOs) state them.
export const SPOKEN_LANGUAGES: [string, string][] = [
  ['en', 'English'],
  ['hinglish', 'Hinglish'],
  ['hi', 'Hindi'],
  ['mr', 'Marathi'],
  ['te', 'Telugu'],
  ['ta', 'Tamil'],
  ['kn', 'Kannada'],
  ['ml', 'Malayalam'],
  ['gu', 'Gujarati'],
  ['pa', 'Punjabi'],
  ['bn', 'Bengali'],
];
const REGIONAL = ['hi', 'mr', 'te', 'ta', 'kn', 'ml', 'gu', 'pa', 'bn'];

export const TURN_TAKING_MODES: [string, string, number, number][] = [
  ['fast', 'Fast', 150, 900],
  ['balanced', 'Balanced', 250, 1500],
  ['patient', 'Patient', 500, 2500],
];
export const LIMITS = {
  nameMax: 50,
  messageMax: 500,
  instructionsMax: 2000,
  maxCallMin: 60,
  maxCallMax: 3600,
  minSilence: [100, 3000],
  maxSilence: [200, 5000],
  maxDigits: [1, 32],
  dtmfTimeout: [500, 15000],
  ackDelay: [0, 10000],
  ackPhrasesMax: 10,
  fallbackVoicesMax: 3,
  dictionariesMax: 5,
  keytermsMax: 50,
  extractionKeysMax: 50,
  summaryInstructionsMax: 2000,
  successRubricMax: 4000,
  successThreshold: [1, 10],
  transferRingSecs: [5, 60],
  handoffsMax: 8,
  handoffLastTurns: [1, 50],
} as const;

export const STT_PROVIDERS: [string, string][] = [
  ['local', 'Local speech (eSpeak NG, PocketSphinx)'],
  ['offline', 'Offline (signal engine, for tests)'],
  ['openai', 'OpenAI'],
  ['deepgram', 'Deepgram'],
  ['assemblyai', 'AssemblyAI'],
  ['sarvam', 'Sarvam'],
];

type OptionRule = { label: string } & ({ type: 'boolean' } | { type: 'number'; min: number; max: number });
/** The options each speech-to-text provider takes, with their bounds; the API refuses any other. */
export const TRANSCRIBER_OPTIONS: Record<string, Record<string, OptionRule>> = {
  deepgram: {
    smart_format: { type: 'boolean', label: 'Smart formatting' },
    numerals: { type: 'boolean', label: 'Write numbers as digits' },
    endpointing_ms: { type: 'number', min: 10, max: 2000, label: 'End of speech after silence (ms)' },
  },
  assemblyai: {
    end_of_turn_confidence_threshold: {
      type: 'number',
      min: 0,
      max: 1,
      label: 'End-of-turn confidence (0 to 1)',
    },
    min_end_of_turn_silence_when_confident_ms: {
      type: 'number',
      min: 0,
      max: 2000,
      label: 'Silence before a confident end of turn (ms)',
    },
  },
  sarvam: { high_vad_sensitivity: { type: 'boolean', label: 'High voice-activity sensitivity' } },
};

export const EXTRACTION_TYPES: [string, string][] = [
  ['string', 'Text'],
  ['number', 'Number'],
  ['boolean', 'Yes or no'],
  ['date', 'Date'],
  ['enum', 'One of a list'],
];
export const EXTRACTION_NAME = /^[a-z][a-z0-9_]{0,63}$/;
/** A handoff destination's name: the tool is handoff_to_<name>. */
export const HANDOFF_NAME = /^[a-z][a-z0-9_]{0,31}$/;

// eslint-disable-next-line @typescript-eslint/no-explicit-any
export type Agent = Record<string, any> & { id: string; agent_name: string };

export interface TranscriberDraft {
  provider: string;
  model: string;
  languages: string[];
  keyterms: string[];
  options: Record<string, string | boolean>;
}

export interface ExtractionKeyDraft {
  name: string;
  type: string;
  description: string;
  options: string[];
}

export interface Draft {
  agent_name: string;
  agent_type: string;
  project_id: string;
  /** The agent's model; null: the deployment's default. */
  model: ModelDraft | null;
  /** Tried in order when the model fails before any of its reply was spoken. */
  fallback_models: ModelDraft[];
  prompt: string;
  intro_message: string;
  spoken_languages: string[];
  voice_id: string;
  fallback_voice_ids: string[];
  background_audio_id: string;
  background_audio_volume: string;
  transcriber: TranscriberDraft | null;
  fallback_transcriber: TranscriberDraft | null;
  dictionary_ids: string[];
  end_call_enabled: boolean;
  end_call_message: string;
  end_call_instructions: string;
  transfer_enabled: boolean;
  transfer_number: string;
  transfer_message: string;
  transfer_instructions: string;
  /** cold | warm | warm_handback */
  transfer_mode: string;
  transfer_briefing_instructions: string;
  transfer_ring_timeout_secs: string;
  send_dtmf_enabled: boolean;
  sms_enabled: boolean;
  /** caller | any */
  sms_allowed_recipients: string;
  /**
   * The built-in tools the model may use (the agent's `tools`); null: every one (what an agent without a list
   * has, and what saving every tool checked sends, so tools added to the platform later are included).
   */
  tools: string[] | null;
  dtmf_enabled: boolean;
  dtmf_max_digits: string;
  dtmf_terminator: string;
  dtmf_timeout_ms: string;
  ack_enabled: boolean;
  ack_mode: string;
  ack_phrases: string[];
  ack_delay_ms: string;
  kb_threshold: string;
  kb_include_summaries: boolean;
  kb_result_format: string;
  kb_enable_llm_processing: boolean;
  kb_llm_system_prompt: string;
  voicemail_detection_enabled: boolean;
  voicemail_message: string;
  screener_handling_enabled: boolean;
  user_idle_enabled: boolean;
  max_call_capped: boolean;
  max_call_duration_secs: string;
  enable_recording: boolean;
  turn_mode: string;
  turn_min_silence_ms: string;
  turn_max_silence_ms: string;
  turn_ignore_backchannels: boolean;
  extraction_enabled: boolean;
  extraction_keys: ExtractionKeyDraft[];
  handoffs: HandoffDraft[];
  summary_enabled: boolean;
  summary_instructions: string;
  success_rubric: string;
  success_threshold: string;
  webhooks_include_account_endpoints: boolean;
}

const text = (v: unknown) => (v === null || v === undefined ? '' : String(v));

function transcriberDraft(t: Agent['transcriber']): TranscriberDraft | null {
  if (!t) return null;
  return {
    provider: t.provider,
    model: text(t.model),
    languages: t.languages ?? [],
    keyterms: t.keyterms ?? [],
    options: Object.fromEntries(
      Object.entries((t.options ?? {}) as Record<string, unknown>).map(([k, v]) => [
        k,
        typeof v === 'boolean' ? v : String(v),
      ]),
    ),
  };
}

/** One destination of the agent's handoffs, as the form edits it. */
export interface HandoffDraft {
  name: string;
  description: string;
  agent_id: string;
  context_mode: string;
  last_turns: string;
  /** Empty: every call variable passes. */
  variables: string[];
}

/** The form of an agent record; without one, the API's defaults (what an agent created with nothing set has). */
export function toDraft(agent: Agent | null): Draft {
  const a: Agent = agent ?? ({ id: '', agent_name: '' } as Agent);
  const turn = a.turn_taking ?? {};
  const dtmf = a.dtmf ?? {};
  const analysis = a.analysis_config ?? {};
  const ack = agent ? a.tool_ack_config : { enabled: true, mode: 'dynamic', phrases: [], delay_ms: 1000 };
  return {
    agent_name: text(a.agent_name),
    agent_type: a.agent_type ?? 'outbound',
    project_id: text(a.project_id),
    model: modelDraft(a.model),
    fallback_models: ((a.fallback_models ?? []) as Record<string, unknown>[])
      .map(modelDraft)
      .filter((m): m is ModelDraft => m !== null),
    prompt: text(a.prompt),
    intro_message: text(a.intro_message),
    // An agent with none set answers the effective [en]; a new one starts with English chosen.
    spoken_languages: agent ? (a.spoken_languages ?? []) : ['en'],
    voice_id: text(a.voice_id),
    fallback_voice_ids: a.fallback_voice_ids ?? [],
    background_audio_id: text(a.background_audio_id),
    background_audio_volume: agent ? text(a.background_audio_volume) : '0.3',
    transcriber: transcriberDraft(a.transcriber),
    fallback_transcriber: transcriberDraft(a.fallback_transcriber),
    dictionary_ids: a.dictionary_ids ?? [],
    end_call_enabled: agent ? Boolean(a.end_call_enabled) : true,
    end_call_message: text(a.end_call_message),
    end_call_instructions: text(a.end_call_instructions),
    transfer_enabled: Boolean(a.transfer_enabled),
    transfer_number: text(a.transfer_number),
    transfer_message: text(a.transfer_message),
    transfer_instructions: text(a.transfer_instructions),
    transfer_mode: a.transfer_mode ?? 'cold',
    transfer_briefing_instructions: text(a.transfer_briefing_instructions),
    transfer_ring_timeout_secs: text(a.transfer_ring_timeout_secs ?? 20),
    send_dtmf_enabled: Boolean(a.send_dtmf_enabled),
    sms_enabled: Boolean(a.sms_enabled),
    sms_allowed_recipients: a.sms_allowed_recipients ?? 'caller',
    tools: Array.isArray(a.tools) ? [...(a.tools as string[])] : null,
    dtmf_enabled: Boolean(dtmf.enabled),
    dtmf_max_digits: text(dtmf.max_digits),
    dtmf_terminator: dtmf.terminator === undefined ? '#' : text(dtmf.terminator),
    dtmf_timeout_ms: text(dtmf.timeout_ms ?? 3000),
    ack_enabled: Boolean(ack && ack.enabled),
    ack_mode: ack?.mode ?? 'dynamic',
    ack_phrases: ack?.phrases ?? [],
    ack_delay_ms: text(ack?.delay_ms ?? 1000),
    kb_threshold: agent ? text(a.kb_threshold) : 'medium',
    kb_include_summaries: Boolean(a.kb_include_summaries),
    kb_result_format: text(a.kb_result_format),
    kb_enable_llm_processing: Boolean(a.kb_enable_llm_processing),
    kb_llm_system_prompt: text(a.kb_llm_system_prompt),
    voicemail_detection_enabled: agent ? Boolean(a.voicemail_detection_enabled) : true,
    voicemail_message: text(a.voicemail_message),
    screener_handling_enabled: Boolean(a.screener_handling_enabled),
    user_idle_enabled: agent ? Boolean(a.user_idle_enabled) : true,
    max_call_capped: agent ? a.max_call_duration_secs !== null : true,
    max_call_duration_secs: agent ? text(a.max_call_duration_secs ?? 600) : '600',
    enable_recording: agent ? Boolean(a.enable_recording) : true,
    turn_mode: turn.mode ?? 'balanced',
    turn_min_silence_ms: text(turn.min_silence_ms),
    turn_max_silence_ms: text(turn.max_silence_ms),
    turn_ignore_backchannels: turn.ignore_backchannels ?? true,
    extraction_enabled: agent ? Boolean(a.extraction_enabled) : true,
    extraction_keys: ((a.extraction_config?.keys ?? []) as ExtractionKeyDraft[]).map((k) => ({
      name: k.name,
      type: k.type,
      description: text(k.description),
      options: k.options ?? [],
    })),
    handoffs: ((a.handoffs ?? []) as Record<string, unknown>[]).map((h) => ({
      name: text(h.name),
      description: text(h.description),
      agent_id: text(h.agent_id),
      context_mode: text(h.context_mode) || 'full',
      last_turns: text(h.last_turns),
      variables: (h.variables as string[] | null) ?? [],
    })),
    summary_enabled: analysis.summary_enabled ?? true,
    summary_instructions: text(analysis.summary_instructions),
    success_rubric: text(analysis.success_rubric),
    success_threshold: text(analysis.success_threshold ?? 7),
    webhooks_include_account_endpoints: agent ? Boolean(a.webhooks_include_account_endpoints) : true,
  };
}

/** Collects the problems found before anything is sent, named as the API names the fields. */
class Problems {
  readonly list: FieldError[] = [];
  add(field: string, message: string) {
    if (!this.list.some((p) => p.field === field)) this.list.push({ field, message });
  }
  /** A whole number within bounds, or null when empty (and allowed to be); undefined when wrong. */
  int(field: string, raw: string, min: number, max: number, label: string, optional = true): number | null {
    const t = raw.trim();
    if (t === '') {
      if (optional) return null;
      this.add(field, `${label} is required`);
      return null;
    }
    const n = Number(t);
    if (!Number.isInteger(n) || n < min || n > max) {
      this.add(field, `${label} must be a whole number from ${min} to ${max}`);
      return null;
    }
    return n;
  }
}

function transcriberBody(t: TranscriberDraft, field: string, p: Problems): Record<string, unknown> {
  const out: Record<string, unknown> = { provider: t.provider };
  if (t.model.trim()) out.model = t.model.trim();
  if (t.languages.length) out.languages = t.languages;
  const keyterms = t.keyterms.map((k) => k.trim()).filter(Boolean);
  if (keyterms.length) out.keyterms = keyterms;
  const rules = TRANSCRIBER_OPTIONS[t.provider] ?? {};
  const options: Record<string, boolean | number> = {};
  for (const [name, rule] of Object.entries(rules)) {
    const v = t.options[name];
    if (rule.type === 'boolean') {
      if (typeof v === 'boolean') options[name] = v;
    } else if (typeof v === 'string' && v.trim() !== '') {
      const n = Number(v);
      if (!Number.isFinite(n) || n < rule.min || n > rule.max)
        p.add(`${field}.options`, `${rule.label} must be a number from ${rule.min} to ${rule.max}`);
      else options[name] = n;
    }
  }
  if (Object.keys(options).length) out.options = options;
  return out;
}

/**
 * Every field of the draft as the API takes it, with the problems found on the way (the models' against their
 * catalog entries when the catalog is given).
 */
export function toApiValues(
  d: Draft,
  catalog: CatalogModel[] | null = null,
): { values: Record<string, unknown>; problems: FieldError[] } {
  const p = new Problems();
  const nullable = (s: string) => (s.trim() === '' ? null : s);
  const values: Record<string, unknown> = {
    agent_name: d.agent_name.trim(),
    agent_type: d.agent_type,
    prompt: d.prompt,
    voice_id: d.voice_id,
    project_id: d.project_id || null,
    intro_message: nullable(d.intro_message),
    spoken_languages: d.spoken_languages,
    fallback_voice_ids: d.fallback_voice_ids.filter(Boolean),
    background_audio_id: d.background_audio_id || null,
    transcriber: d.transcriber ? transcriberBody(d.transcriber, 'transcriber', p) : null,
    fallback_transcriber: d.fallback_transcriber
      ? transcriberBody(d.fallback_transcriber, 'fallback_transcriber', p)
      : null,
    dictionary_ids: d.dictionary_ids,
    end_call_enabled: d.end_call_enabled,
    end_call_message: nullable(d.end_call_message),
    end_call_instructions: nullable(d.end_call_instructions),
    transfer_enabled: d.transfer_enabled,
    transfer_number: nullable(d.transfer_number.trim()),
    transfer_message: nullable(d.transfer_message),
    transfer_instructions: nullable(d.transfer_instructions),
    transfer_mode: d.transfer_mode,
    transfer_briefing_instructions: nullable(d.transfer_briefing_instructions),
    transfer_ring_timeout_secs: p.int(
      'transfer_ring_timeout_secs',
      d.transfer_ring_timeout_secs,
      LIMITS.transferRingSecs[0],
      LIMITS.transferRingSecs[1],
      'How long the person’s phone rings',
      false,
    ),
    send_dtmf_enabled: d.send_dtmf_enabled,
    sms_enabled: d.sms_enabled,
    sms_allowed_recipients: d.sms_allowed_recipients,
    tools: d.tools,
    kb_threshold: d.kb_threshold || null,
    kb_include_summaries: d.kb_include_summaries,
    kb_result_format: nullable(d.kb_result_format),
    kb_enable_llm_processing: d.kb_enable_llm_processing,
    kb_llm_system_prompt: nullable(d.kb_llm_system_prompt),
    voicemail_detection_enabled: d.voicemail_detection_enabled,
    voicemail_message: nullable(d.voicemail_message),
    screener_handling_enabled: d.screener_handling_enabled,
    user_idle_enabled: d.user_idle_enabled,
    enable_recording: d.enable_recording,
    extraction_enabled: d.extraction_enabled,
    webhooks_include_account_endpoints: d.webhooks_include_account_endpoints,
    ...modelValues(d.model, d.fallback_models, catalog, (field, message) => p.add(field, message)),
  };
  if (d.transfer_enabled && !d.transfer_number.trim())
    p.add('transfer_number', 'A transfer number is required when the agent may transfer');
  const volume = d.background_audio_volume.trim();
  if (volume === '') values.background_audio_volume = null;
  else {
    const n = Number(volume);
    if (!Number.isFinite(n) || n < 0 || n > 1)
      p.add('background_audio_volume', 'The volume must be a number from 0 to 1');
    values.background_audio_volume = n;
  }
  values.max_call_duration_secs = d.max_call_capped
    ? p.int(
        'max_call_duration_secs',
        d.max_call_duration_secs,
        LIMITS.maxCallMin,
        LIMITS.maxCallMax,
        'The maximum duration',
        false,
      )
    : null;
  values.turn_taking = {
    mode: d.turn_mode,
    min_silence_ms: p.int(
      'turn_taking.min_silence_ms',
      d.turn_min_silence_ms,
      LIMITS.minSilence[0],
      LIMITS.minSilence[1],
      'The silence after a complete sentence',
    ),
    max_silence_ms: p.int(
      'turn_taking.max_silence_ms',
      d.turn_max_silence_ms,
      LIMITS.maxSilence[0],
      LIMITS.maxSilence[1],
      'The silence after an unfinished sentence',
    ),
    ignore_backchannels: d.turn_ignore_backchannels,
  };
  values.dtmf = {
    enabled: d.dtmf_enabled,
    max_digits: p.int(
      'dtmf.max_digits',
      d.dtmf_max_digits,
      LIMITS.maxDigits[0],
      LIMITS.maxDigits[1],
      'The number of digits',
    ),
    terminator: d.dtmf_terminator || null,
    timeout_ms: p.int(
      'dtmf.timeout_ms',
      d.dtmf_timeout_ms,
      LIMITS.dtmfTimeout[0],
      LIMITS.dtmfTimeout[1],
      'The keypad timeout',
      false,
    ),
  };
  if (d.ack_enabled) {
    const phrases = d.ack_phrases.map((s) => s.trim()).filter(Boolean);
    if (d.ack_mode === 'static' && phrases.length === 0)
      p.add('tool_ack_config.phrases', 'Add at least one phrase, or let the model word the acknowledgement');
    values.tool_ack_config = {
      enabled: true,
      mode: d.ack_mode,
      phrases: d.ack_mode === 'static' ? phrases : [],
      delay_ms: p.int(
        'tool_ack_config.delay_ms',
        d.ack_delay_ms,
        LIMITS.ackDelay[0],
        LIMITS.ackDelay[1],
        'The wait before speaking',
        false,
      ),
    };
  } else values.tool_ack_config = null;
  d.extraction_keys.forEach((k, i) => {
    if (!EXTRACTION_NAME.test(k.name))
      p.add(
        `extraction_config.keys.${i}.name`,
        'A key name starts with a lower-case letter, then lower-case letters, digits or _ (at most 64)',
      );
    if (k.type === 'enum' && k.options.map((o) => o.trim()).filter(Boolean).length === 0)
      p.add(`extraction_config.keys.${i}.options`, 'List the values the answer may take');
  });
  d.handoffs.forEach((h, i) => {
    if (!HANDOFF_NAME.test(h.name))
      p.add(
        `handoffs.${i}.name`,
        'A name is lower-case letters, digits or _ (at most 32), starting with a letter',
      );
    if (!h.description.trim()) p.add(`handoffs.${i}.description`, 'Say when the agent should hand off');
    if (!h.agent_id) p.add(`handoffs.${i}.agent_id`, 'Choose the agent to hand off to');
  });
  values.handoffs = d.handoffs.map((h, i) => ({
    name: h.name.trim(),
    description: h.description.trim(),
    agent_id: h.agent_id,
    context_mode: h.context_mode,
    last_turns:
      h.context_mode === 'last_turns'
        ? p.int(
            `handoffs.${i}.last_turns`,
            h.last_turns,
            LIMITS.handoffLastTurns[0],
            LIMITS.handoffLastTurns[1],
            'The number of messages',
          )
        : null,
    variables: h.variables.map((v) => v.trim()).filter(Boolean).length
      ? h.variables.map((v) => v.trim()).filter(Boolean)
      : null,
  }));
  values.analysis_config = {
    summary_enabled: d.summary_enabled,
    summary_instructions: nullable(d.summary_instructions),
    success_rubric: nullable(d.success_rubric),
    success_threshold: p.int(
      'analysis_config.success_threshold',
      d.success_threshold,
      LIMITS.successThreshold[0],
      LIMITS.successThreshold[1],
      'The passing score',
      false,
    ),
  };
  values.extraction_config = {
    keys: d.extraction_keys.map((k) => ({
      name: k.name.trim(),
      type: k.type,
      description: k.description,
      ...(k.type === 'enum' ? { options: k.options.map((o) => o.trim()).filter(Boolean) } : {}),
    })),
  };
  return { values, problems: p.list };
}

/** Fields POST /agent does not take: set by an update once the agent exists. */
export const UPDATE_ONLY = ['extraction_config', 'webhooks_include_account_endpoints'];
const REQUIRED = ['agent_name', 'agent_type', 'prompt', 'voice_id'];

const same = (a: unknown, b: unknown) => JSON.stringify(a) === JSON.stringify(b);

/**
 * The requests a save makes. Creating: POST with the required fields and those set otherwise than the
 * defaults, then (when set) a PUT of the update-only fields. Editing: one PUT of the fields changed.
 */
export function toRequests(
  draft: Draft,
  original: Draft | null,
  catalog: CatalogModel[] | null = null,
): { create: Record<string, unknown> | null; update: Record<string, unknown>; problems: FieldError[] } {
  const { values, problems } = toApiValues(draft, catalog);
  const base = toApiValues(original ?? toDraft(null)).values;
  const changed = Object.keys(values).filter((k) => !same(values[k], base[k]));
  const pick = (keys: string[]) => Object.fromEntries(keys.map((k) => [k, values[k]]));
  if (original) return { create: null, update: pick(changed), problems };
  const createKeys = [...new Set([...REQUIRED, ...changed])].filter((k) => !UPDATE_ONLY.includes(k));
  return {
    create: pick(createKeys),
    update: pick(changed.filter((k) => UPDATE_ONLY.includes(k))),
    problems,
  };
}

/** A built-in tool as GET /agent-tools describes it (what the builder shows of it). */
export interface AgentTool {
  name: string;
  kind: string;
  title: string;
  description: string;
  always_offered: boolean;
  selectable: boolean;
}

/**
 * The tools list after a checkbox changed: `checked` are the selectable tools checked now. Every one checked is
 * null (every tool, as an agent without a list); a tool always offered is never part of a list.
 */
export function toolsChoice(catalog: AgentTool[], checked: string[]): string[] | null {
  const choosable = catalog.filter((t) => t.selectable && !t.always_offered).map((t) => t.name);
  const kept = choosable.filter((name) => checked.includes(name));
  return kept.length === choosable.length ? null : kept;
}

/** Whether the draft lets the model use the tool (null: every tool). */
export function toolAllowed(tools: string[] | null, tool: AgentTool): boolean {
  return tool.always_offered || tools === null || tools.includes(tool.name);
}

/** The rule the API applies to spoken_languages, said before saving (null: the choice is allowed). */
export function spokenLanguagesProblem(langs: string[]): string | null {
  if (langs.length > 2) return 'Choose at most two languages';
  if (langs.filter((l) => REGIONAL.includes(l)).length > 1)
    return 'Choose at most one of Hindi and the regional languages';
  if (langs.includes('hinglish') && langs.some((l) => l !== 'hinglish' && l !== 'en' && l !== 'hi'))
    return 'Hinglish pairs only with English or Hindi';
  return null;
}
