// The builder's model section: the provider and its models from the catalog (GET /models) by name, those the
// account cannot use shown disabled with the reason and a link to the Provider keys page; the model's parameters
// within its own bounds; fallback models in order; and what calls will run on, before anything is saved.
import { ApiError } from '../../api.js';
import { Select, TextInput } from '../../components/inputs.js';
import {
  catalogEntry,
  CatalogModel,
  modelName,
  modelProviderLabel,
  tokens,
} from '../../components/models.js';
import { ErrorNotice, Field, useId } from '../../components/ui.js';
import { linkProps } from '../../router.js';
import { choiceOf, fromChoice, MODEL_LIMITS, ModelDraft, modelOfProvider, runsOn } from './agent-model.js';
import { SPOKEN_LANGUAGES } from './model.js';
import { Part, type SectionProps } from './sections.js';

const LANGUAGE_NAMES = new Map(SPOKEN_LANGUAGES);
/** The any-model choice of the radios: a model id typed in. */
const OTHER = '\u0000other';
/** The model of the typed-in choice before anything is typed: not empty, so the choice stays open; sent trimmed. */
const TYPING = ' ';

/** The catalog's providers in its order, each with whether the account can use any of its models. */
function providersOf(catalog: CatalogModel[]): { provider: string; label: string; usable: boolean }[] {
  const out: { provider: string; label: string; usable: boolean }[] = [];
  for (const m of catalog) {
    const known = out.find((p) => p.provider === m.provider);
    if (known) known.usable ||= m.availability !== null;
    else out.push({ provider: m.provider, label: m.provider_label, usable: m.availability !== null });
  }
  return out;
}

/** What a model can do, in a line: its context, tools, languages, speech to speech. */
function facts(m: CatalogModel): string {
  const parts = [`${tokens(m.context_window)} tokens of context`];
  parts.push(m.capabilities.tools ? 'calls tools' : 'no tools');
  parts.push(
    m.capabilities.languages.length
      ? m.capabilities.languages.map((l) => LANGUAGE_NAMES.get(l) ?? l).join(', ')
      : 'any language',
  );
  if (m.capabilities.speech_to_speech) parts.push('speech to speech');
  return parts.join(' · ');
}

/** Why a provider cannot be used, with the way to change it: its key on the Provider keys page. */
function KeyNeeded({ entry, id }: { entry: CatalogModel; id: string }) {
  return (
    <p id={id} class="card notice">
      {entry.unavailable_reason ?? `${entry.provider_label} needs a key on this account.`}{' '}
      <a {...linkProps('/provider-keys')}>
        {entry.provider === 'custom'
          ? 'Add your model server on the Provider keys page'
          : `Add your ${entry.provider_label} key on the Provider keys page`}
      </a>
      <span class="muted"> (changes not saved here are lost)</span>
    </p>
  );
}

/** The provider's models as radio buttons; an any-model provider also takes a model name typed in. */
function ModelChoice({
  value,
  catalog,
  error,
  onChange,
}: {
  value: ModelDraft;
  catalog: CatalogModel[];
  error: ApiError | null;
  onChange: (m: ModelDraft) => void;
}) {
  const base = useId('model-choice');
  const entries = catalog.filter((m) => m.provider === value.provider);
  const label = modelProviderLabel(value.provider, catalog);
  const message = error?.fieldMessage('model.model');
  const anyModel = entries.some((m) => m.any_model);
  const listed = entries.some((m) => m.model === value.model);
  const other = anyModel && value.model !== '' && !listed;
  const blocked = entries.find((m) => m.availability === null);
  const describedBy = [blocked ? `${base}-why` : '', message ? `${base}-error` : '']
    .filter(Boolean)
    .join(' ');
  const choose = (model: string) => onChange({ ...value, model, voice: '' });
  return (
    <fieldset class="group" {...(describedBy ? { 'aria-describedby': describedBy } : {})}>
      <legend>{label} models</legend>
      {blocked && <KeyNeeded entry={blocked} id={`${base}-why`} />}
      {entries.length === 0 && <p class="muted">The catalog lists no models of {label}.</p>}
      {entries.map((m) => {
        const id = `${base}-${m.model.replace(/\W/g, '-')}`;
        // A model the agent already has stays chosen even when its key went (the API keeps it until changed).
        const disabled = m.availability === null && value.model !== m.model;
        return (
          <div key={m.model} class="field check">
            <input
              type="radio"
              id={id}
              name={`${base}-model`}
              value={m.model}
              checked={value.model === m.model}
              disabled={disabled}
              aria-invalid={Boolean(message)}
              aria-describedby={`${id}-facts`}
              onChange={() => choose(m.model)}
            />
            <label for={id}>{m.label}</label>
            <small id={`${id}-facts`} class="muted">
              {m.model} · {facts(m)}
              {m.availability === null ? ' · needs a key' : ''}
            </small>
          </div>
        );
      })}
      {anyModel && (
        <>
          <div class="field check">
            <input
              type="radio"
              id={`${base}-other`}
              name={`${base}-model`}
              value={OTHER}
              checked={other}
              disabled={entries.every((m) => m.availability === null) && !other}
              onChange={() => choose(TYPING)}
            />
            <label for={`${base}-other`}>
              {value.provider === 'azure_openai' ? 'Another deployment' : 'Another model'}
            </label>
          </div>
          {other && (
            <TextInput
              label={value.provider === 'azure_openai' ? 'Deployment name' : 'Model name'}
              name="model.model"
              error={error}
              hint={
                value.provider === 'azure_openai'
                  ? 'As named in your Azure OpenAI resource'
                  : value.provider === 'custom'
                    ? 'What your server expects in the request’s model field'
                    : `The model’s id at ${label}`
              }
              value={value.model.trim()}
              onChange={(v) => onChange({ ...value, model: v === '' ? TYPING : v })}
            />
          )}
        </>
      )}
      {message && !other && (
        <div id={`${base}-error`} class="error" role="alert">
          {message}
        </div>
      )}
    </fieldset>
  );
}

/** The model's parameters within its catalog entry's bounds; the provider's voice for speech-to-speech models. */
function Parameters({
  value,
  entry,
  error,
  onChange,
}: {
  value: ModelDraft;
  entry: CatalogModel | undefined;
  error: ApiError | null;
  onChange: (m: ModelDraft) => void;
}) {
  const t = entry?.parameters;
  return (
    <>
      <div class="row">
        <TextInput
          label="Temperature"
          name="model.temperature"
          type="number"
          error={error}
          hint={`${t?.temperature_min ?? MODEL_LIMITS.temperature[0]} to ${t?.temperature_max ?? MODEL_LIMITS.temperature[1]}; lower is steadier. Empty: the provider’s default`}
          value={value.temperature}
          onChange={(v) => onChange({ ...value, temperature: v })}
        />
        <TextInput
          label="Longest reply (tokens)"
          name="model.max_tokens"
          type="number"
          error={error}
          hint={`1 to ${t ? tokens(t.max_tokens_max) : 'the model’s limit'}. Empty: the provider’s default`}
          value={value.max_tokens}
          onChange={(v) => onChange({ ...value, max_tokens: v })}
        />
        <TextInput
          label="Top p"
          name="model.top_p"
          type="number"
          error={error}
          hint="0 to 1. Empty: the provider’s default"
          value={value.top_p}
          onChange={(v) => onChange({ ...value, top_p: v })}
        />
      </div>
      {entry?.capabilities.speech_to_speech && (
        <Select
          label="The model’s voice"
          name="model.voice"
          error={error}
          hint="Speech-to-speech models speak with their provider’s own voices"
          value={value.voice}
          onChange={(v) => onChange({ ...value, voice: v })}
          options={[
            ['', 'The model’s default voice'],
            ...(entry.voices ?? []).map((v): [string, string] => [v, v]),
          ]}
        />
      )}
    </>
  );
}

/** One fallback's model: every model of the catalog by name, grouped by provider, those not usable disabled. */
function FallbackSelect({
  i,
  value,
  catalog,
  error,
  onChange,
}: {
  i: number;
  value: ModelDraft;
  catalog: CatalogModel[];
  error: ApiError | null;
  onChange: (m: ModelDraft) => void;
}) {
  const current = choiceOf(value);
  const known = catalog.some((m) => choiceOf(m) === current);
  const field = `fallback_models.${i}`;
  const message = error?.fieldMessage(`${field}.provider`);
  return (
    <Field label={`Fallback model ${i + 1}`} name={`${field}.model`} error={error}>
      {(p) => (
        <>
          <select
            {...p}
            value={value.provider ? current : ''}
            onChange={(e) => {
              const { provider, model } = fromChoice(e.currentTarget.value);
              onChange({ provider, model, temperature: '', max_tokens: '', top_p: '', voice: '' });
            }}
          >
            <option value="">Choose a model…</option>
            {value.provider && !known && (
              <option value={current}>{modelName(value.provider, value.model, catalog)}</option>
            )}
            {providersOf(catalog).map((group) => (
              <optgroup
                key={group.provider}
                label={group.usable ? group.label : `${group.label} (needs a key)`}
              >
                {catalog
                  .filter((m) => m.provider === group.provider)
                  .map((m) => (
                    <option
                      key={m.model}
                      value={choiceOf(m)}
                      disabled={m.availability === null && choiceOf(m) !== current}
                    >
                      {modelName(m.provider, m.model, catalog)}
                    </option>
                  ))}
              </optgroup>
            ))}
          </select>
          {message && (
            <div class="error" role="alert">
              {message}
            </div>
          )}
        </>
      )}
    </Field>
  );
}

export function AgentModelSection({
  draft,
  set,
  error,
  catalog,
  catalogError,
}: SectionProps & { catalog: CatalogModel[] | null; catalogError: ApiError | null }) {
  const summaryId = useId('runs-on');
  const models = catalog ?? [];
  const model = draft.model;
  const fallbacks = draft.fallback_models;
  const entry = model ? catalogEntry(models, model.provider, model.model.trim()) : undefined;
  const providers = providersOf(models);
  if (model && !providers.some((p) => p.provider === model.provider))
    providers.push({ provider: model.provider, label: modelProviderLabel(model.provider), usable: false });
  const setFallbacks = (next: ModelDraft[]) => set({ fallback_models: next });
  const move = (from: number, to: number) => {
    const next = [...fallbacks];
    const [row] = next.splice(from, 1);
    next.splice(to, 0, row);
    setFallbacks(next);
  };
  const rootMessage = error?.fieldMessage('model');
  const fallbacksMessage = error?.fieldMessage('fallback_models');
  return (
    <>
      <Part
        title="Model"
        hint="The model the agent thinks with. A provider’s models run on your key for it, or on the platform’s where your plan includes it."
      >
        <ErrorNotice error={catalogError} />
        {!catalog && !catalogError && <p class="muted">Loading the models…</p>}
        <Select
          label="Model provider"
          name="model.provider"
          error={error}
          hint="Deployment default: the model this platform is set up with, else the offline engine"
          value={model?.provider ?? ''}
          onChange={(p) => set({ model: modelOfProvider(p, models), ...(p ? {} : { fallback_models: [] }) })}
          options={[
            ['', 'Deployment default'],
            ...providers.map((p): [string, string] => [
              p.provider,
              p.usable ? p.label : `${p.label} (needs a key)`,
            ]),
          ]}
        />
        {rootMessage && (
          <div class="error" role="alert">
            {rootMessage}
          </div>
        )}
        {model && (
          <>
            <ModelChoice value={model} catalog={models} error={error} onChange={(m) => set({ model: m })} />
            <Parameters value={model} entry={entry} error={error} onChange={(m) => set({ model: m })} />
          </>
        )}
      </Part>
      <Part
        title="Fallback models"
        hint={`Tried in this order when a turn’s model fails before any of its reply was spoken (at most ${MODEL_LIMITS.fallbacksMax}), each with its provider’s defaults.`}
      >
        {fallbacks.map((f, i) => (
          <div class="row list-row" key={i}>
            <FallbackSelect
              i={i}
              value={f}
              catalog={models}
              error={error}
              onChange={(m) => setFallbacks(fallbacks.map((x, j) => (j === i ? m : x)))}
            />
            <button
              type="button"
              class="secondary"
              aria-label={`Move fallback model ${i + 1} up`}
              disabled={i === 0}
              onClick={() => move(i, i - 1)}
            >
              Up
            </button>
            <button
              type="button"
              class="secondary"
              aria-label={`Move fallback model ${i + 1} down`}
              disabled={i === fallbacks.length - 1}
              onClick={() => move(i, i + 1)}
            >
              Down
            </button>
            <button
              type="button"
              class="secondary"
              aria-label={`Remove fallback model ${i + 1}`}
              onClick={() => setFallbacks(fallbacks.filter((_, j) => j !== i))}
            >
              Remove
            </button>
          </div>
        ))}
        {fallbacksMessage && (
          <div class="error" role="alert">
            {fallbacksMessage}
          </div>
        )}
        {!model ? (
          <p class="muted">Choose a model first: fallbacks back up the agent’s own model.</p>
        ) : (
          fallbacks.length < MODEL_LIMITS.fallbacksMax && (
            <button
              type="button"
              class="secondary"
              onClick={() =>
                setFallbacks([
                  ...fallbacks,
                  { provider: '', model: '', temperature: '', max_tokens: '', top_p: '', voice: '' },
                ])
              }
            >
              Add a fallback model
            </button>
          )
        )}
      </Part>
      <section class="card" aria-labelledby={summaryId}>
        <h4 id={summaryId}>What calls will run on</h4>
        <ul class="plain" aria-live="polite" data-testid="runs-on">
          {runsOn(model, fallbacks, models).map((line) => (
            <li key={line}>{line}</li>
          ))}
        </ul>
      </section>
    </>
  );
}
