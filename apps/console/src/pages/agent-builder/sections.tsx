// The agent builder's sections: each a part of one form, with the fields named as the API names them so its
// validation messages appear at them.
import type { ComponentChildren } from 'preact';
import { ApiError } from '../../api.js';
import {
  Checkbox,
  CheckboxGroup,
  RadioGroup,
  Select,
  TextArea,
  TextInput,
  TextList,
} from '../../components/inputs.js';
import { CatalogVoice, VoicePicker, voiceIdOf, voiceLabel } from '../../components/voice-picker.js';
import { AgentSummary, Project } from '../../components/names.js';
import { useId } from '../../components/ui.js';
import { linkProps } from '../../router.js';
import { speechProviderLabel } from '../../components/speech-providers.js';
import { RunsOnLine, SpeechKey, transcriberRunsOn, voiceRunsOn } from './speech-runs-on.js';
import {
  AgentTool,
  Draft,
  EXTRACTION_TYPES,
  ExtractionKeyDraft,
  HandoffDraft,
  LIMITS,
  SPOKEN_LANGUAGES,
  spokenLanguagesProblem,
  STT_PROVIDERS,
  TRANSCRIBER_OPTIONS,
  TranscriberDraft,
  toolAllowed,
  toolsChoice,
  TURN_TAKING_MODES,
} from './model.js';

export interface SectionProps {
  draft: Draft;
  set: (patch: Partial<Draft>) => void;
  error: ApiError | null;
}

/** The fields (API names, or their first part) each section holds: an error there selects its tab. */
export const SECTION_FIELDS: Record<string, string[]> = {
  model: [
    'agent_name',
    'agent_type',
    'project_id',
    'model',
    'fallback_models',
    'prompt',
    'intro_message',
    'spoken_languages',
  ],
  voice: ['voice_id', 'fallback_voice_ids', 'background_audio_id', 'background_audio_volume'],
  transcriber: ['transcriber', 'fallback_transcriber', 'dictionary_ids'],
  tools: [
    'end_call_enabled',
    'end_call_message',
    'end_call_instructions',
    'transfer_enabled',
    'transfer_number',
    'transfer_message',
    'transfer_instructions',
    'transfer_mode',
    'transfer_briefing_instructions',
    'transfer_ring_timeout_secs',
    'send_dtmf_enabled',
    'sms_enabled',
    'sms_allowed_recipients',
    'tools',
    'dtmf',
    'tool_ack_config',
    'custom_functions',
    'handoffs',
  ],
  knowledge: [
    'kb_threshold',
    'kb_include_summaries',
    'kb_result_format',
    'kb_enable_llm_processing',
    'kb_llm_system_prompt',
  ],
  calls: [
    'voicemail_detection_enabled',
    'voicemail_message',
    'screener_handling_enabled',
    'user_idle_enabled',
    'max_call_duration_secs',
    'enable_recording',
    'turn_taking',
  ],
  analysis: ['extraction_enabled', 'extraction_config', 'analysis_config'],
  advanced: ['webhooks_include_account_endpoints'],
};

/** The section an API field belongs to. */
export function sectionOf(field: string): string | undefined {
  const root = field.split('.')[0];
  return Object.keys(SECTION_FIELDS).find((s) => SECTION_FIELDS[s].includes(root));
}

export function Part({
  title,
  children,
  hint,
}: {
  title: string;
  hint?: string;
  children: ComponentChildren;
}) {
  return (
    <fieldset class="part">
      <legend>{title}</legend>
      {hint && <p class="muted">{hint}</p>}
      {children}
    </fieldset>
  );
}

export function ModelSection({
  draft,
  set,
  error,
  projects,
  modelPicker,
}: SectionProps & {
  projects: Project[];
  /** The model, its parameters and fallbacks (model-picker.tsx): after who the agent is, before its prompt. */
  modelPicker?: ComponentChildren;
}) {
  const languageProblem = spokenLanguagesProblem(draft.spoken_languages);
  const defaultProject = projects.find((p) => p.is_default);
  return (
    <>
      <TextInput
        label="Name"
        name="agent_name"
        error={error}
        required
        hint={`Unique in the account, at most ${LIMITS.nameMax} characters`}
        value={draft.agent_name}
        onChange={(v) => set({ agent_name: v })}
      />
      <Select
        label="Type"
        name="agent_type"
        error={error}
        value={draft.agent_type}
        onChange={(v) => set({ agent_type: v })}
        options={[
          ['outbound', 'Outbound: the agent places calls'],
          ['inbound', 'Inbound: the agent answers calls'],
        ]}
      />
      <Select
        label="Project"
        name="project_id"
        error={error}
        // No project chosen is the account's default project: shown as that project, listed once.
        value={draft.project_id || defaultProject?.id || ''}
        onChange={(v) => set({ project_id: v })}
        options={[
          ...(!projects.some((p) => p.id === (draft.project_id || defaultProject?.id))
            ? ([['', 'Default project']] as [string, string][])
            : []),
          ...projects.map((p): [string, string] => [p.id, p.is_default ? `${p.name} (default)` : p.name]),
        ]}
      />
      {modelPicker}
      <TextArea
        label="Prompt"
        name="prompt"
        error={error}
        rows={10}
        hint="Who the agent is and what it does; {{variables}} are filled in for each call"
        value={draft.prompt}
        onChange={(v) => set({ prompt: v })}
      />
      <TextArea
        label="Intro message"
        name="intro_message"
        error={error}
        rows={2}
        hint="Said when the call connects; empty: the agent starts by listening"
        value={draft.intro_message}
        onChange={(v) => set({ intro_message: v })}
      />
      <CheckboxGroup
        legend="Spoken languages"
        name="spoken_languages"
        error={error}
        hint="At most two; at most one of Hindi and the regional languages; Hinglish only with English or Hindi. None chosen: English."
        options={SPOKEN_LANGUAGES}
        value={draft.spoken_languages}
        onChange={(v) => set({ spoken_languages: v })}
      />
      <p class="error" aria-live="polite">
        {languageProblem ?? ''}
      </p>
    </>
  );
}

/**
 * What calls will run on for a section (its voice, its transcriber), a sentence each, said before saving; a
 * provider that needs a key links to the Provider keys page.
 */
function RunsOn({ title, lines, testId }: { title: string; lines: RunsOnLine[]; testId: string }) {
  const id = useId(testId);
  return (
    <section class="card" aria-labelledby={id}>
      <h4 id={id}>{title}</h4>
      <ul class="plain" aria-live="polite" data-testid={testId}>
        {lines.map((line) => (
          <li key={line.text}>
            {line.text}
            {line.needsKey && (
              <>
                {' '}
                <a {...linkProps('/provider-keys')}>
                  Add your {speechProviderLabel(line.needsKey)} key on the Provider keys page
                </a>
                <span class="muted"> (save first: leaving this page drops your changes)</span>
              </>
            )}
          </li>
        ))}
      </ul>
    </section>
  );
}

export interface BackgroundAudio {
  id: string;
  name: string;
  category: string;
  default_volume: number;
}

export function VoiceSection({
  draft,
  set,
  error,
  voices,
  backgroundAudio,
}: SectionProps & { voices: CatalogVoice[]; backgroundAudio: BackgroundAudio[] }) {
  const others = voices.filter((v) => voiceIdOf(v) !== draft.voice_id);
  return (
    <>
      <VoicePicker
        voices={voices}
        value={draft.voice_id}
        onChange={(id) => set({ voice_id: id })}
        error={error}
      />
      <Part
        title="Fallback voices"
        hint="Spoken, in this order, when the voice’s provider fails during a call (at most three)."
      >
        {draft.fallback_voice_ids.map((id, i) => (
          <div class="row list-row" key={i}>
            <Select
              label={`Fallback voice ${i + 1}`}
              name={`fallback_voice_ids.${i}`}
              error={error}
              value={id}
              onChange={(v) =>
                set({ fallback_voice_ids: draft.fallback_voice_ids.map((x, j) => (j === i ? v : x)) })
              }
              options={[
                ['', 'Choose a voice…'],
                ...others.map((v): [string, string] => [voiceIdOf(v), voiceLabel(v)]),
              ]}
            />
            <button
              type="button"
              class="secondary"
              aria-label={`Remove fallback voice ${i + 1}`}
              onClick={() => set({ fallback_voice_ids: draft.fallback_voice_ids.filter((_, j) => j !== i) })}
            >
              Remove
            </button>
          </div>
        ))}
        {error?.fieldMessage('fallback_voice_ids') && (
          <div class="error" role="alert">
            {error.fieldMessage('fallback_voice_ids')}
          </div>
        )}
        {draft.fallback_voice_ids.length < LIMITS.fallbackVoicesMax && (
          <button
            type="button"
            class="secondary"
            onClick={() => set({ fallback_voice_ids: [...draft.fallback_voice_ids, ''] })}
          >
            Add a fallback voice
          </button>
        )}
      </Part>
      <RunsOn
        title="What calls will speak with"
        lines={voiceRunsOn(draft.voice_id, draft.fallback_voice_ids, voices)}
        testId="voice-runs-on"
      />
      <Part title="Background audio" hint="A looped sound played under the agent’s voice.">
        <Select
          label="Background audio"
          name="background_audio_id"
          error={error}
          value={draft.background_audio_id}
          onChange={(v) => set({ background_audio_id: v })}
          options={[
            ['', 'None'],
            ...backgroundAudio.map((b): [string, string] => [b.id, `${b.name} (${b.category})`]),
          ]}
        />
        <TextInput
          label="Background audio volume"
          name="background_audio_volume"
          error={error}
          type="number"
          hint="From 0 (silent) to 1; empty: 0.3"
          value={draft.background_audio_volume}
          onChange={(v) => set({ background_audio_volume: v })}
        />
      </Part>
    </>
  );
}

function TranscriberForm({
  label,
  field,
  value,
  onChange,
  error,
  spokenLanguages,
}: {
  label: string;
  field: 'transcriber' | 'fallback_transcriber';
  value: TranscriberDraft | null;
  onChange: (v: TranscriberDraft | null) => void;
  error: ApiError | null;
  spokenLanguages: string[];
}) {
  const rules = value ? (TRANSCRIBER_OPTIONS[value.provider] ?? {}) : {};
  const languageNames = new Map(SPOKEN_LANGUAGES);
  return (
    <Part title={label}>
      <Select
        label={`${label}: provider`}
        name={`${field}.provider`}
        error={error}
        value={value?.provider ?? ''}
        onChange={(p) =>
          onChange(
            p === ''
              ? null
              : {
                  provider: p,
                  model: value?.model ?? '',
                  languages: value?.languages ?? [],
                  keyterms: value?.keyterms ?? [],
                  options: {},
                },
          )
        }
        options={[['', field === 'transcriber' ? 'The platform’s default' : 'None'], ...STT_PROVIDERS]}
      />
      {error?.fieldMessage(field) && (
        <div class="error" role="alert">
          {error.fieldMessage(field)}
        </div>
      )}
      {value && (
        <>
          <TextInput
            label={`${label}: model`}
            name={`${field}.model`}
            error={error}
            hint="The provider’s model name (e.g. nova-3); empty: the provider’s default"
            value={value.model}
            onChange={(m) => onChange({ ...value, model: m })}
          />
          <CheckboxGroup
            legend={`${label}: languages to recognise`}
            name={`${field}.languages`}
            error={error}
            hint="Among the agent’s spoken languages; none chosen: all of them"
            options={(spokenLanguages.length ? spokenLanguages : ['en']).map((l): [string, string] => [
              l,
              languageNames.get(l) ?? l,
            ])}
            value={value.languages}
            onChange={(l) => onChange({ ...value, languages: l })}
          />
          <TextList
            legend={`${label}: words to boost`}
            itemLabel="Word"
            name={`${field}.keyterms`}
            error={error}
            hint="Names and products the recogniser should expect (at most 50, each at most 64 characters)"
            value={value.keyterms}
            max={LIMITS.keytermsMax}
            addLabel="Add a word"
            onChange={(k) => onChange({ ...value, keyterms: k })}
          />
          {Object.entries(rules).map(([name, rule]) =>
            rule.type === 'boolean' ? (
              <Checkbox
                key={name}
                label={rule.label}
                name={`${field}.options.${name}`}
                error={error}
                checked={value.options[name] === true}
                onChange={(c) => onChange({ ...value, options: { ...value.options, [name]: c } })}
              />
            ) : (
              <TextInput
                key={name}
                label={rule.label}
                name={`${field}.options.${name}`}
                error={error}
                type="number"
                hint={`${rule.min} to ${rule.max}; empty: the provider’s default`}
                value={String(value.options[name] ?? '')}
                onChange={(n) => onChange({ ...value, options: { ...value.options, [name]: n } })}
              />
            ),
          )}
          {error?.fieldMessage(`${field}.options`) && (
            <div class="error" role="alert">
              {error.fieldMessage(`${field}.options`)}
            </div>
          )}
        </>
      )}
    </Part>
  );
}

export interface Dictionary {
  id: string;
  name: string;
  entry_count: number;
}

export function TranscriberSection({
  draft,
  set,
  error,
  dictionaries,
  voices,
  keys,
}: SectionProps & {
  dictionaries: Dictionary[];
  voices: CatalogVoice[];
  /** The account's provider keys; null until known (nothing is said of keys before). */
  keys: SpeechKey[] | null;
}) {
  return (
    <>
      <TranscriberForm
        label="Transcriber"
        field="transcriber"
        value={draft.transcriber}
        onChange={(t) => set({ transcriber: t })}
        error={error}
        spokenLanguages={draft.spoken_languages}
      />
      <TranscriberForm
        label="Fallback transcriber"
        field="fallback_transcriber"
        value={draft.fallback_transcriber}
        onChange={(t) => set({ fallback_transcriber: t })}
        error={error}
        spokenLanguages={draft.spoken_languages}
      />
      {keys && (
        <RunsOn
          title="What calls will hear with"
          lines={transcriberRunsOn(draft.transcriber, draft.fallback_transcriber, keys, voices)}
          testId="transcriber-runs-on"
        />
      )}
      <CheckboxGroup
        legend="Pronunciation dictionaries"
        name="dictionary_ids"
        error={error}
        hint={
          dictionaries.length
            ? 'Their words are boosted in recognition and spoken as their entries say (at most five).'
            : 'The account has no pronunciation dictionaries.'
        }
        options={dictionaries.map((d): [string, string] => [d.id, `${d.name} (${d.entry_count} words)`])}
        value={draft.dictionary_ids}
        onChange={(v) => set({ dictionary_ids: v })}
      />
    </>
  );
}

/**
 * Which built-in tools the model may use (the agent's `tools`), each named and described as the catalog
 * (GET /agent-tools) describes it; a tool is offered only when it is checked here and its settings turn it on.
 */
export function ToolChoices({ draft, set, error, catalog }: SectionProps & { catalog: AgentTool[] }) {
  const base = useId('tool-choices');
  const message = error?.fieldMessage('tools');
  const tools = catalog.filter((t) => t.selectable);
  const checked = tools.filter((t) => toolAllowed(draft.tools, t)).map((t) => t.name);
  return (
    <fieldset class="part" aria-describedby={message ? `${base}-error` : `${base}-hint`}>
      <legend>Built-in tools the agent may use</legend>
      <p id={`${base}-hint`} class="muted">
        A tool is offered to the agent only when it is checked here and its settings below turn it on.
      </p>
      {tools.length === 0 && <p class="muted">Loading the tools…</p>}
      {tools.map((tool) => {
        const id = `${base}-${tool.name}`;
        return (
          <div key={tool.name} class="field check">
            <input
              type="checkbox"
              id={id}
              name="tools"
              value={tool.name}
              checked={toolAllowed(draft.tools, tool)}
              disabled={tool.always_offered}
              aria-describedby={`${id}-hint`}
              onChange={(e) => {
                const on = e.currentTarget.checked;
                const next = on ? [...checked, tool.name] : checked.filter((n) => n !== tool.name);
                set({ tools: toolsChoice(catalog, next) });
              }}
            />
            <label for={id}>{tool.title}</label>
            <small id={`${id}-hint`} class="muted">
              {tool.description}
              {tool.always_offered &&
                ' Always available: a request not to be called again is honoured on every call.'}
            </small>
          </div>
        );
      })}
      {message && (
        <div id={`${base}-error`} class="error" role="alert">
          {message}
        </div>
      )}
    </fieldset>
  );
}

/** The built-in tools: ending the call, transferring it, pressing and hearing keys, acknowledgements. */
export function BuiltInTools({ draft, set, error }: SectionProps) {
  return (
    <>
      <Part title="End call">
        <Checkbox
          label="The agent may end the call"
          name="end_call_enabled"
          error={error}
          checked={draft.end_call_enabled}
          onChange={(v) => set({ end_call_enabled: v })}
        />
        {draft.end_call_enabled && (
          <>
            <TextInput
              label="Said before hanging up"
              name="end_call_message"
              error={error}
              hint="Empty: the platform’s farewell"
              value={draft.end_call_message}
              onChange={(v) => set({ end_call_message: v })}
            />
            <TextArea
              label="When to end the call"
              name="end_call_instructions"
              error={error}
              rows={3}
              value={draft.end_call_instructions}
              onChange={(v) => set({ end_call_instructions: v })}
            />
          </>
        )}
      </Part>
      <Part title="Transfer to a person">
        <Checkbox
          label="The agent may transfer the call"
          name="transfer_enabled"
          error={error}
          checked={draft.transfer_enabled}
          onChange={(v) => set({ transfer_enabled: v })}
        />
        {draft.transfer_enabled && (
          <>
            <TextInput
              label="Transfer number"
              name="transfer_number"
              type="tel"
              error={error}
              hint="In international format, e.g. +919876543210"
              value={draft.transfer_number}
              onChange={(v) => set({ transfer_number: v })}
            />
            <TextInput
              label="Said before transferring"
              name="transfer_message"
              error={error}
              hint="Empty: the platform’s words"
              value={draft.transfer_message}
              onChange={(v) => set({ transfer_message: v })}
            />
            <TextArea
              label="When to transfer"
              name="transfer_instructions"
              error={error}
              rows={3}
              value={draft.transfer_instructions}
              onChange={(v) => set({ transfer_instructions: v })}
            />
            <Select
              label="How to transfer"
              name="transfer_mode"
              error={error}
              value={draft.transfer_mode}
              onChange={(v) => set({ transfer_mode: v })}
              options={[
                ['cold', 'Cold: put the caller straight through'],
                ['warm', 'Warm: brief the person first; if they cannot take it, say goodbye'],
                [
                  'warm_handback',
                  'Warm with handback: brief the person first; if they cannot take it, carry on',
                ],
              ]}
            />
            {draft.transfer_mode !== 'cold' && (
              <>
                <TextArea
                  label="What the briefing tells the person"
                  name="transfer_briefing_instructions"
                  error={error}
                  hint="Empty: who is calling, what they want and what was said. The caller hears hold music meanwhile."
                  rows={3}
                  value={draft.transfer_briefing_instructions}
                  onChange={(v) => set({ transfer_briefing_instructions: v })}
                />
                <TextInput
                  label="Ring the person for (seconds)"
                  name="transfer_ring_timeout_secs"
                  type="number"
                  error={error}
                  hint="5 to 60; after that the person counts as not answering"
                  value={draft.transfer_ring_timeout_secs}
                  onChange={(v) => set({ transfer_ring_timeout_secs: v })}
                />
              </>
            )}
          </>
        )}
      </Part>
      <Part title="Keypad">
        <Checkbox
          label="The agent may press keys (to navigate phone menus)"
          name="send_dtmf_enabled"
          error={error}
          checked={draft.send_dtmf_enabled}
          onChange={(v) => set({ send_dtmf_enabled: v })}
        />
        <Checkbox
          label="Hear the caller’s key presses"
          name="dtmf.enabled"
          error={error}
          hint="Keys pressed are collected into an entry that reaches the agent as the caller’s turn"
          checked={draft.dtmf_enabled}
          onChange={(v) => set({ dtmf_enabled: v })}
        />
        {draft.dtmf_enabled && (
          <div class="row">
            <TextInput
              label="Digits in an entry"
              name="dtmf.max_digits"
              type="number"
              error={error}
              hint="1 to 32; empty: no fixed length"
              value={draft.dtmf_max_digits}
              onChange={(v) => set({ dtmf_max_digits: v })}
            />
            <Select
              label="Key that ends an entry"
              name="dtmf.terminator"
              error={error}
              value={draft.dtmf_terminator}
              onChange={(v) => set({ dtmf_terminator: v })}
              options={[
                ['#', '#'],
                ['*', '*'],
                ['', 'None'],
              ]}
            />
            <TextInput
              label="Entry ends after (ms without a key)"
              name="dtmf.timeout_ms"
              type="number"
              error={error}
              hint="500 to 15000"
              value={draft.dtmf_timeout_ms}
              onChange={(v) => set({ dtmf_timeout_ms: v })}
            />
          </div>
        )}
      </Part>
      <Part title="Text messages (SMS)">
        <Checkbox
          label="The agent may send text messages during a call"
          name="sms_enabled"
          error={error}
          hint="For a confirmation, an address or a link; at most 3 per call, sent from the call’s number with the contact policy applied. They show in Messages."
          checked={draft.sms_enabled}
          onChange={(v) => set({ sms_enabled: v })}
        />
        {draft.sms_enabled && (
          <RadioGroup
            legend="Who the agent may text"
            name="sms_allowed_recipients"
            error={error}
            value={draft.sms_allowed_recipients}
            onChange={(v) => set({ sms_allowed_recipients: v })}
            options={[
              [
                'caller',
                'Only the person on the call',
                'The number called, or the caller of an inbound call. The safe choice.',
              ],
              [
                'any',
                'Any number the person gives',
                'The agent may also text another number said during the call (e.g. “send it to my wife’s phone”).',
              ],
            ]}
          />
        )}
      </Part>
      <Part title="While a tool runs">
        <Checkbox
          label="Say something while a tool runs"
          name="tool_ack_config.enabled"
          error={error}
          checked={draft.ack_enabled}
          onChange={(v) => set({ ack_enabled: v })}
        />
        {draft.ack_enabled && (
          <>
            <Select
              label="What is said"
              name="tool_ack_config.mode"
              error={error}
              value={draft.ack_mode}
              onChange={(v) => set({ ack_mode: v })}
              options={[
                ['dynamic', 'The model words a short acknowledgement'],
                ['static', 'One of my phrases, picked at random'],
              ]}
            />
            {draft.ack_mode === 'static' && (
              <TextList
                legend="Phrases"
                itemLabel="Phrase"
                name="tool_ack_config.phrases"
                error={error}
                hint="1 to 10 phrases of at most 200 characters"
                value={draft.ack_phrases}
                max={LIMITS.ackPhrasesMax}
                addLabel="Add a phrase"
                onChange={(v) => set({ ack_phrases: v })}
              />
            )}
            <TextInput
              label="Speak when the tool has not answered after (ms)"
              name="tool_ack_config.delay_ms"
              type="number"
              error={error}
              hint="0 to 10000"
              value={draft.ack_delay_ms}
              onChange={(v) => set({ ack_delay_ms: v })}
            />
          </>
        )}
      </Part>
    </>
  );
}

export function KnowledgeSettings({ draft, set, error }: SectionProps) {
  return (
    <Part title="Knowledge base settings">
      <Select
        label="Relevance cut-off"
        name="kb_threshold"
        error={error}
        value={draft.kb_threshold}
        onChange={(v) => set({ kb_threshold: v })}
        options={[
          ['low', 'Low'],
          ['medium', 'Medium'],
          ['high', 'High'],
          ['', 'No cut-off (the best passages whatever their score)'],
        ]}
      />
      <Checkbox
        label="Include document summaries"
        name="kb_include_summaries"
        error={error}
        checked={draft.kb_include_summaries}
        onChange={(v) => set({ kb_include_summaries: v })}
      />
      <TextArea
        label="Result format"
        name="kb_result_format"
        error={error}
        rows={3}
        hint="How found passages are given to the model; empty: the platform’s format"
        value={draft.kb_result_format}
        onChange={(v) => set({ kb_result_format: v })}
      />
      <Checkbox
        label="Process results with the model before answering"
        name="kb_enable_llm_processing"
        error={error}
        checked={draft.kb_enable_llm_processing}
        onChange={(v) => set({ kb_enable_llm_processing: v })}
      />
      {draft.kb_enable_llm_processing && (
        <TextArea
          label="Processing instructions"
          name="kb_llm_system_prompt"
          error={error}
          rows={4}
          value={draft.kb_llm_system_prompt}
          onChange={(v) => set({ kb_llm_system_prompt: v })}
        />
      )}
    </Part>
  );
}

export function CallHandlingSection({ draft, set, error }: SectionProps) {
  const preset = TURN_TAKING_MODES.find(([m]) => m === draft.turn_mode);
  return (
    <>
      <Part title="Voicemail and screeners">
        <Checkbox
          label="Detect voicemail"
          name="voicemail_detection_enabled"
          error={error}
          checked={draft.voicemail_detection_enabled}
          onChange={(v) => set({ voicemail_detection_enabled: v })}
        />
        {draft.voicemail_detection_enabled && (
          <>
            <TextArea
              label="Voicemail message"
              name="voicemail_message"
              error={error}
              rows={2}
              hint="Left on the machine; empty: the agent hangs up"
              value={draft.voicemail_message}
              onChange={(v) => set({ voicemail_message: v })}
            />
            <Checkbox
              label="Handle call screeners"
              name="screener_handling_enabled"
              error={error}
              checked={draft.screener_handling_enabled}
              onChange={(v) => set({ screener_handling_enabled: v })}
            />
          </>
        )}
      </Part>
      <Part title="Silence and length">
        <Checkbox
          label="Prompt a silent caller, and end the call if they stay silent"
          name="user_idle_enabled"
          error={error}
          checked={draft.user_idle_enabled}
          onChange={(v) => set({ user_idle_enabled: v })}
        />
        <Checkbox
          label="Limit the call’s length"
          name="max_call_capped"
          checked={draft.max_call_capped}
          onChange={(v) => set({ max_call_capped: v })}
        />
        {draft.max_call_capped && (
          <TextInput
            label="Maximum call duration (seconds)"
            name="max_call_duration_secs"
            type="number"
            error={error}
            hint="60 to 3600; a wrap-up warning is spoken 30 s before"
            value={draft.max_call_duration_secs}
            onChange={(v) => set({ max_call_duration_secs: v })}
          />
        )}
        <Checkbox
          label="Record calls"
          name="enable_recording"
          error={error}
          checked={draft.enable_recording}
          onChange={(v) => set({ enable_recording: v })}
        />
      </Part>
      <Part title="Turn taking" hint="When the caller’s turn is over and the agent answers.">
        <Select
          label="Pace"
          name="turn_taking.mode"
          error={error}
          value={draft.turn_mode}
          onChange={(v) => set({ turn_mode: v })}
          options={TURN_TAKING_MODES.map(([m, label, min, max]): [string, string] => [
            m,
            `${label} (${min} to ${max} ms of silence)`,
          ])}
        />
        <div class="row">
          <TextInput
            label="Silence after a complete sentence (ms)"
            name="turn_taking.min_silence_ms"
            type="number"
            error={error}
            hint={`${LIMITS.minSilence[0]} to ${LIMITS.minSilence[1]}; empty: the pace’s ${preset?.[2] ?? ''}`}
            value={draft.turn_min_silence_ms}
            onChange={(v) => set({ turn_min_silence_ms: v })}
          />
          <TextInput
            label="Silence after an unfinished sentence (ms)"
            name="turn_taking.max_silence_ms"
            type="number"
            error={error}
            hint={`${LIMITS.maxSilence[0]} to ${LIMITS.maxSilence[1]}; empty: the pace’s ${preset?.[3] ?? ''}`}
            value={draft.turn_max_silence_ms}
            onChange={(v) => set({ turn_max_silence_ms: v })}
          />
        </div>
        <Checkbox
          label="Ignore short acknowledgements (“yeah”, “okay”, “haan”) while the agent speaks"
          name="turn_taking.ignore_backchannels"
          error={error}
          checked={draft.turn_ignore_backchannels}
          onChange={(v) => set({ turn_ignore_backchannels: v })}
        />
      </Part>
    </>
  );
}

function ExtractionKeyRow({
  k,
  i,
  error,
  onChange,
  onRemove,
}: {
  k: ExtractionKeyDraft;
  i: number;
  error: ApiError | null;
  onChange: (k: ExtractionKeyDraft) => void;
  onRemove: () => void;
}) {
  const field = `extraction_config.keys.${i}`;
  return (
    <fieldset class="part key-row">
      <legend>Key {i + 1}</legend>
      <div class="row">
        <TextInput
          label={`Key ${i + 1} name`}
          name={`${field}.name`}
          error={error}
          hint="e.g. callback_requested: lower-case letters, digits and _"
          value={k.name}
          onChange={(v) => onChange({ ...k, name: v })}
        />
        <Select
          label={`Key ${i + 1} type`}
          name={`${field}.type`}
          error={error}
          value={k.type}
          onChange={(v) => onChange({ ...k, type: v, options: v === 'enum' ? k.options : [] })}
          options={EXTRACTION_TYPES}
        />
      </div>
      <TextInput
        label={`Key ${i + 1} description`}
        name={`${field}.description`}
        error={error}
        hint="What to extract, in plain words"
        value={k.description}
        onChange={(v) => onChange({ ...k, description: v })}
      />
      {k.type === 'enum' && (
        <TextList
          legend={`Key ${i + 1} values`}
          itemLabel={`Key ${i + 1} value`}
          name={`${field}.options`}
          error={error}
          value={k.options}
          max={50}
          addLabel="Add a value"
          onChange={(v) => onChange({ ...k, options: v })}
        />
      )}
      <button type="button" class="secondary" onClick={onRemove}>
        Remove key {i + 1}
      </button>
    </fieldset>
  );
}

export function ExtractionSettings({ draft, set, error }: SectionProps) {
  const keys = draft.extraction_keys;
  const setKey = (i: number, k: ExtractionKeyDraft) =>
    set({ extraction_keys: keys.map((x, j) => (j === i ? k : x)) });
  return (
    <>
      <Part
        title="Summary and success"
        hint="After each answered call: a few sentences on what happened, and a score out of 10 against what you count as success."
      >
        <Checkbox
          label="Summarise each call"
          name="analysis_config.summary_enabled"
          error={error}
          checked={draft.summary_enabled}
          onChange={(v) => set({ summary_enabled: v })}
        />
        {draft.summary_enabled && (
          <TextArea
            label="What the summary should say (optional)"
            name="analysis_config.summary_instructions"
            error={error}
            rows={2}
            hint="e.g. Name the product the caller asked about"
            value={draft.summary_instructions}
            onChange={(v) => set({ summary_instructions: v })}
          />
        )}
        <TextArea
          label="What a successful call achieves (optional)"
          name="analysis_config.success_rubric"
          error={error}
          rows={3}
          hint="e.g. The caller booked an appointment and confirmed the date. Empty: no success score."
          value={draft.success_rubric}
          onChange={(v) => set({ success_rubric: v })}
        />
        {draft.success_rubric.trim() !== '' && (
          <TextInput
            label="Passing score (out of 10)"
            name="analysis_config.success_threshold"
            type="number"
            error={error}
            hint={`${LIMITS.successThreshold[0]} to ${LIMITS.successThreshold[1]}`}
            value={draft.success_threshold}
            onChange={(v) => set({ success_threshold: v })}
          />
        )}
      </Part>
      <Checkbox
        label="Extract data after each call"
        name="extraction_enabled"
        error={error}
        checked={draft.extraction_enabled}
        onChange={(v) => set({ extraction_enabled: v })}
      />
      <Part
        title="Extraction keys"
        hint="What to pull out of each conversation once it ends, besides the keys of attached extraction sets."
      >
        {keys.map((k, i) => (
          <ExtractionKeyRow
            key={i}
            k={k}
            i={i}
            error={error}
            onChange={(v) => setKey(i, v)}
            onRemove={() => set({ extraction_keys: keys.filter((_, j) => j !== i) })}
          />
        ))}
        {keys.length === 0 && <p class="muted">No keys yet.</p>}
        {error?.fieldMessage('extraction_config.keys') && (
          <div class="error" role="alert">
            {error.fieldMessage('extraction_config.keys')}
          </div>
        )}
        {keys.length < LIMITS.extractionKeysMax && (
          <button
            type="button"
            class="secondary"
            onClick={() =>
              set({ extraction_keys: [...keys, { name: '', type: 'string', description: '', options: [] }] })
            }
          >
            Add an extraction key
          </button>
        )}
      </Part>
    </>
  );
}

const CONTEXT_MODES: [string, string][] = [
  ['full', 'The whole conversation'],
  ['last_turns', 'Its last messages'],
  ['summary', 'A summary written at the handoff'],
];

/**
 * The agents this one may hand the call to (a squad): each a tool handoff_to_<name> the model may call, with what
 * the next agent receives of the conversation and which call variables pass.
 */
export function Handoffs({
  draft,
  set,
  error,
  agents,
  selfId,
}: SectionProps & { agents: AgentSummary[]; selfId: string | null }) {
  const rows = draft.handoffs;
  const setRow = (i: number, h: HandoffDraft) => set({ handoffs: rows.map((x, j) => (j === i ? h : x)) });
  const choices: [string, string][] = [
    ['', 'Choose an agent'],
    ...agents.filter((a) => a.id !== selfId).map((a): [string, string] => [a.id, a.agent_name]),
  ];
  return (
    <Part
      title="Hand off to other agents"
      hint="The model passes the caller to another of your agents when the description fits; that agent’s prompt, tools and knowledge take over on the same call."
    >
      {rows.map((h, i) => {
        const field = `handoffs.${i}`;
        return (
          <fieldset key={i}>
            <legend>Handoff {i + 1}</legend>
            <TextInput
              label={`Handoff ${i + 1} name`}
              name={`${field}.name`}
              error={error}
              hint="e.g. billing: the model is offered handoff_to_billing"
              value={h.name}
              onChange={(v) => setRow(i, { ...h, name: v })}
            />
            <TextInput
              label={`Handoff ${i + 1}: when to hand off`}
              name={`${field}.description`}
              error={error}
              value={h.description}
              onChange={(v) => setRow(i, { ...h, description: v })}
            />
            <Select
              label={`Handoff ${i + 1} agent`}
              name={`${field}.agent_id`}
              error={error}
              value={h.agent_id}
              onChange={(v) => setRow(i, { ...h, agent_id: v })}
              options={choices}
            />
            <Select
              label={`Handoff ${i + 1}: the next agent receives`}
              name={`${field}.context_mode`}
              error={error}
              value={h.context_mode}
              onChange={(v) => setRow(i, { ...h, context_mode: v })}
              options={CONTEXT_MODES}
            />
            {h.context_mode === 'last_turns' && (
              <TextInput
                label={`Handoff ${i + 1}: how many messages`}
                name={`${field}.last_turns`}
                type="number"
                error={error}
                hint={`${LIMITS.handoffLastTurns[0]} to ${LIMITS.handoffLastTurns[1]}; empty: 4`}
                value={h.last_turns}
                onChange={(v) => setRow(i, { ...h, last_turns: v })}
              />
            )}
            <TextList
              legend={`Handoff ${i + 1}: variables that pass (none listed: all)`}
              itemLabel={`Handoff ${i + 1} variable`}
              name={`${field}.variables`}
              error={error}
              value={h.variables}
              max={50}
              addLabel="Add a variable"
              onChange={(v) => setRow(i, { ...h, variables: v })}
            />
            <button
              type="button"
              class="secondary"
              onClick={() => set({ handoffs: rows.filter((_, j) => j !== i) })}
            >
              Remove handoff {i + 1}
            </button>
          </fieldset>
        );
      })}
      {rows.length === 0 && <p class="muted">No handoffs: this agent keeps its calls.</p>}
      {rows.length < LIMITS.handoffsMax && (
        <button
          type="button"
          class="secondary"
          onClick={() =>
            set({
              handoffs: [
                ...rows,
                {
                  name: '',
                  description: '',
                  agent_id: '',
                  context_mode: 'full',
                  last_turns: '',
                  variables: [],
                },
              ],
            })
          }
        >
          Add a handoff
        </button>
      )}
    </Part>
  );
}
