// The agent builder: one form in sections a partner recognises (a tab list), created or saved at once. The
// API's validation messages appear at their fields, and the tab holding a field in error is marked and opened.
import type { ComponentChildren } from 'preact';
import { useEffect, useState } from 'preact/hooks';
import { ApiError, v2 } from '../../api.js';
import { loadAgents, loadFunctions, loadProjects } from '../../components/names.js';
import { TabList, TabPanel, TabSpec } from '../../components/tabs.js';
import { CopyButton, useLoad } from '../../components/ui.js';
import { CatalogVoice } from '../../components/voice-picker.js';
import { Checkbox } from '../../components/inputs.js';
import { loadModelCatalog } from '../../components/models.js';
import { navigate, onNavigate } from '../../router.js';
import { can, Session } from '../../session.js';
import { AgentDocuments, AgentExtractionSets, AgentFunctions } from './attachments.js';
import { Agent, AgentTool, Draft, toDraft, toRequests } from './model.js';
import { AgentModelSection } from './model-picker.js';
import type { SpeechKey } from './speech-runs-on.js';
import {
  BackgroundAudio,
  BuiltInTools,
  Handoffs,
  CallHandlingSection,
  Dictionary,
  ExtractionSettings,
  KnowledgeSettings,
  ModelSection,
  Part,
  sectionOf,
  ToolChoices,
  TranscriberSection,
  VoiceSection,
} from './sections.js';

const SECTIONS: TabSpec[] = [
  { id: 'model', label: 'Model and prompt' },
  { id: 'voice', label: 'Voice' },
  { id: 'transcriber', label: 'Transcriber' },
  { id: 'tools', label: 'Tools' },
  { id: 'knowledge', label: 'Knowledge' },
  { id: 'calls', label: 'Call handling' },
  { id: 'analysis', label: 'Analysis' },
  { id: 'advanced', label: 'Advanced' },
];

/** The API field a draft field is sent as (several draft fields make one nested object). */
function apiFieldOf(key: string): string {
  if (key.startsWith('turn_')) return 'turn_taking';
  if (key.startsWith('dtmf_')) return 'dtmf';
  if (key.startsWith('ack_')) return 'tool_ack_config';
  if (key.startsWith('max_call_')) return 'max_call_duration_secs';
  if (key === 'extraction_keys') return 'extraction_config';
  return key;
}

/** An error of a save's later steps, shown on the created agent's page (the create itself worked). */
const afterCreate = new Map<string, ApiError>();

/** The section a link asks for (`?section=tools`), else the first. */
function initialSection(): string {
  const asked = new URLSearchParams(window.location.search).get('section');
  return SECTIONS.some((s) => s.id === asked) ? asked! : 'model';
}

function SaveNotice({ error }: { error: ApiError | null }) {
  if (!error) return null;
  const elsewhere = error.details.filter((d) => !sectionOf(d.field));
  return (
    <div class="card error" role="alert">
      {/* With field messages, the API's summary repeats them: they are shown at their fields instead. */}
      <strong>
        {error.details.length ? 'The agent was not saved: some fields need attention.' : error.message}
      </strong>
      {error.details.length > elsewhere.length && <p>The sections marked with errors show where.</p>}
      {elsewhere.length > 0 && (
        <ul>
          {elsewhere.map((d) => (
            <li key={d.field}>{d.message}</li>
          ))}
        </ul>
      )}
    </div>
  );
}

export function AgentBuilder({
  session,
  agent,
  onChange,
}: {
  session: Session;
  agent: Agent | null;
  /** Asks for the agent again (after attaching or detaching something). */
  onChange: () => void;
}) {
  const write = can.write(session);
  const [original, setOriginal] = useState<Draft | null>(agent ? toDraft(agent) : null);
  const [draft, setDraft] = useState<Draft>(() => toDraft(agent));
  const [error, setError] = useState<ApiError | null>(() =>
    agent ? (afterCreate.get(agent.id) ?? null) : null,
  );
  const [tab, setTab] = useState(initialSection);
  const [busy, setBusy] = useState(false);
  const [saved, setSaved] = useState('');
  const [pendingFunctions, setPendingFunctions] = useState<string[]>([]);

  const voices = useLoad(() => v2.get<{ voice_configurations: CatalogVoice[] }>('/voice-configurations'), []);
  const audio = useLoad(() => v2.get<{ background_audio: BackgroundAudio[] }>('/agent/background-audio'), []);
  const projects = useLoad(loadProjects, []);
  const dictionaries = useLoad(
    () => v2.get<{ dictionaries: Dictionary[] }>('/dictionaries', { limit: 100 }),
    [],
  );
  const functions = useLoad(loadFunctions, []);
  const toolCatalog = useLoad(() => v2.get<{ tools: AgentTool[] }>('/agent-tools'), []);
  const agentList = useLoad(loadAgents, []);
  const modelCatalog = useLoad(loadModelCatalog, []);
  const speechKeys = useLoad(
    () => v2.get<{ provider_credentials: SpeechKey[] }>('/provider-credentials'),
    [],
  );
  // A link on this page to one of its sections (the Talk panel's to the Transcriber) selects that tab.
  useEffect(
    () =>
      onNavigate(() => {
        const asked = new URLSearchParams(window.location.search).get('section');
        if (asked && SECTIONS.some((s) => s.id === asked)) setTab(asked);
      }),
    [],
  );

  const set = (patch: Partial<Draft>) => {
    setSaved('');
    setDraft((d) => ({ ...d, ...patch }));
    // A field changed since the save no longer carries that save's message (nor marks its section).
    const roots = new Set(Object.keys(patch).map(apiFieldOf));
    setError((e) => {
      if (!e || e.details.length === 0) return e;
      const details = e.details.filter((d) => !roots.has(d.field.split('.')[0]));
      if (details.length === e.details.length) return e;
      return details.length ? new ApiError(e.status, e.code, e.message, details) : null;
    });
  };

  const fail = (err: unknown) => {
    const e = err instanceof ApiError ? err : new ApiError(0, 'ERROR', String(err));
    setError(e);
    const first = e.details.map((d) => sectionOf(d.field)).find(Boolean);
    if (first) setTab(first);
  };

  const submit = async (e: Event) => {
    e.preventDefault();
    const { create, update, problems } = toRequests(draft, original, modelCatalog.data);
    if (problems.length)
      return fail(
        new ApiError(400, 'VALIDATION_ERROR', 'Some fields need attention before saving', problems),
      );
    setBusy(true);
    setError(null);
    try {
      if (create) {
        const created = await v2.post<Agent>('/agent', create);
        // The agent exists now: what follows is shown on its page if it fails.
        try {
          if (Object.keys(update).length) await v2.put(`/agent/${created.id}`, update);
          for (const fn of pendingFunctions)
            await v2.post(`/agent/${created.id}/custom-functions/${encodeURIComponent(fn)}`);
        } catch (err) {
          afterCreate.set(
            created.id,
            err instanceof ApiError
              ? new ApiError(
                  err.status,
                  err.code,
                  `The agent was created, but not all of it was saved: ${err.message}`,
                  err.details,
                )
              : new ApiError(0, 'ERROR', String(err)),
          );
        }
        navigate(`/agents/${created.id}`, true);
        return;
      }
      if (!agent) return;
      if (Object.keys(update).length === 0) {
        setSaved('Nothing to save: no field changed.');
        return;
      }
      const updated = await v2.put<Agent>(`/agent/${agent.id}`, update);
      afterCreate.delete(agent.id);
      setOriginal(toDraft(updated));
      setDraft(toDraft(updated));
      setSaved('Saved');
      onChange();
    } catch (err) {
      fail(err);
    } finally {
      setBusy(false);
    }
  };

  const remove = async () => {
    if (!agent || !window.confirm(`Delete the agent ${agent.agent_name}? Its calls stay in the call list.`))
      return;
    try {
      await v2.del(`/agent/${agent.id}`);
      navigate('/agents');
    } catch (err) {
      fail(err);
    }
  };

  const errorCount = (section: string) =>
    (error?.details ?? []).filter((d) => sectionOf(d.field) === section).length;
  const tabs = SECTIONS.map((s) => {
    const n = errorCount(s.id);
    return n ? { ...s, note: n === 1 ? '1 error' : `${n} errors` } : s;
  });
  const common = { draft, set, error };
  const panel = (id: string, children: ComponentChildren) => (
    <TabPanel id={id} active={tab} idPrefix="agent">
      <h3 class="sr-only">{SECTIONS.find((s) => s.id === id)!.label}</h3>
      {children}
    </TabPanel>
  );

  return (
    <form
      class="builder"
      onSubmit={submit}
      noValidate
      aria-label={agent ? `Agent ${agent.agent_name}` : 'New agent'}
    >
      <SaveNotice error={error} />
      <TabList label="Agent sections" tabs={tabs} active={tab} onSelect={setTab} idPrefix="agent" />
      <fieldset class="bare" disabled={!write}>
        {panel(
          'model',
          <ModelSection
            {...common}
            projects={projects.data ?? []}
            modelPicker={
              <AgentModelSection {...common} catalog={modelCatalog.data} catalogError={modelCatalog.error} />
            }
          />,
        )}
        {panel(
          'voice',
          <VoiceSection
            {...common}
            voices={voices.data?.voice_configurations ?? []}
            backgroundAudio={audio.data?.background_audio ?? []}
          />,
        )}
        {panel(
          'transcriber',
          <TranscriberSection
            {...common}
            dictionaries={dictionaries.data?.dictionaries ?? []}
            voices={voices.data?.voice_configurations ?? []}
            keys={speechKeys.data?.provider_credentials ?? null}
          />,
        )}
        {panel(
          'tools',
          <>
            <AgentFunctions
              agent={agent}
              functions={functions.data ?? []}
              write={write}
              onChange={onChange}
              pending={pendingFunctions}
              setPending={setPendingFunctions}
            />
            <ToolChoices {...common} catalog={toolCatalog.data?.tools ?? []} />
            <BuiltInTools {...common} />
            <Handoffs {...common} agents={agentList.data ?? []} selfId={agent?.id ?? null} />
          </>,
        )}
        {panel(
          'knowledge',
          <>
            {agent ? (
              <AgentDocuments agentId={agent.id} write={write} />
            ) : (
              <p class="muted">Documents are attached once the agent is created.</p>
            )}
            <KnowledgeSettings {...common} />
          </>,
        )}
        {panel('calls', <CallHandlingSection {...common} />)}
        {panel(
          'analysis',
          <>
            <ExtractionSettings {...common} />
            {agent && <AgentExtractionSets agent={agent} write={write} onChange={onChange} />}
          </>,
        )}
        {panel(
          'advanced',
          <>
            {agent ? (
              <>
                <Part title="Webhooks">
                  <Checkbox
                    label="Also send this agent’s events to the account’s webhook endpoints"
                    name="webhooks_include_account_endpoints"
                    error={error}
                    hint="Turning this off needs an enabled webhook endpoint of the agent’s own"
                    checked={draft.webhooks_include_account_endpoints}
                    onChange={(v) => set({ webhooks_include_account_endpoints: v })}
                  />
                </Part>
                <Part title="Identifier">
                  <p>
                    The agent’s id, for the API: <code>{agent.id}</code>{' '}
                    <CopyButton text={agent.id} label="Copy id" />
                  </p>
                </Part>
                {write && (
                  <Part title="Delete">
                    <button type="button" class="danger" onClick={remove}>
                      Delete agent
                    </button>
                  </Part>
                )}
              </>
            ) : (
              <p class="muted">
                Webhook settings, the agent’s id and deleting it are here once it is created.
              </p>
            )}
          </>,
        )}
      </fieldset>
      {write && (
        <div class="actions">
          <button type="submit" disabled={busy}>
            {busy ? 'Saving…' : agent ? 'Save changes' : 'Create agent'}
          </button>{' '}
          <span role="status" class="ok">
            {saved}
          </span>
        </div>
      )}
    </form>
  );
}
