// The agent's model and fallback models in the builder: the form's state made from the record, the request's
// `model` / `fallback_models` made from it (exactly the API's shapes), the rules the API applies said before
// saving, and what a call will run on, in words, from the catalog (GET /models).
import type { FieldError } from '../../api.js';
import {
  ANY_MODEL_ID,
  catalogEntry,
  CatalogModel,
  modelName,
  modelProviderLabel,
} from '../../components/models.js';

/** The API's bounds (the agent validators); each model's own come from its catalog entry. */
export const MODEL_LIMITS = { fallbacksMax: 3, temperature: [0, 2], topP: [0, 1], maxTokensMin: 1 } as const;

/** One model as the form edits it: numbers as typed, '' for the provider's default. */
export interface ModelDraft {
  provider: string;
  model: string;
  temperature: string;
  max_tokens: string;
  top_p: string;
  voice: string;
}

const text = (v: unknown) => (v === null || v === undefined ? '' : String(v));

/** The form of an agent's `model` (or one of its `fallback_models`); null: the deployment's default. */
export function modelDraft(m: Record<string, unknown> | null | undefined): ModelDraft | null {
  if (!m || typeof m.provider !== 'string') return null;
  return {
    provider: m.provider,
    model: text(m.model),
    temperature: text(m.temperature),
    max_tokens: text(m.max_tokens),
    top_p: text(m.top_p),
    voice: text(m.voice),
  };
}

/** A new model of a provider: its first model this account can use (the offline engine's own), or none yet. */
export function modelOfProvider(provider: string, catalog: CatalogModel[]): ModelDraft | null {
  if (!provider) return null;
  const usable = catalog.find((m) => m.provider === provider && m.availability !== null);
  return { provider, model: usable?.model ?? '', temperature: '', max_tokens: '', top_p: '', voice: '' };
}

/** The same provider's same model (a fallback must be another one). */
const sameModel = (a: ModelDraft, b: ModelDraft) =>
  a.provider === b.provider && a.model.trim() === b.model.trim();

/** What a fallback's choice is called in its select: provider and model in one value. */
export const choiceOf = (m: Pick<ModelDraft, 'provider' | 'model'>) => `${m.provider}|${m.model}`;
export function fromChoice(choice: string): Pick<ModelDraft, 'provider' | 'model'> {
  const at = choice.indexOf('|');
  return at < 0
    ? { provider: '', model: '' }
    : { provider: choice.slice(0, at), model: choice.slice(at + 1) };
}

type Add = (field: string, message: string) => void;

/** A number of the form within bounds (null: empty, the provider's default); undefined after a problem. */
function numberIn(
  raw: string,
  field: string,
  add: Add,
  [min, max]: readonly [number, number],
  label: string,
  whole = false,
): number | null {
  const t = raw.trim();
  if (t === '') return null;
  const n = Number(t);
  if (!Number.isFinite(n) || (whole && !Number.isInteger(n)) || n < min || n > max) {
    add(field, `${label} must be ${whole ? 'a whole number' : 'a number'} from ${min} to ${max}, or empty`);
    return null;
  }
  return n;
}

/**
 * One model as the API takes it (every parameter, null for the provider's default), with the problems found
 * against the model's catalog entry when the catalog is known (the API checks the same).
 */
export function modelBody(
  m: ModelDraft,
  field: string,
  catalog: CatalogModel[] | null,
  add: Add,
): Record<string, unknown> {
  const model = m.model.trim();
  const provider = modelProviderLabel(m.provider, catalog ?? []);
  if (!model) add(`${field}.model`, `Choose a model of ${provider}`);
  else if (!ANY_MODEL_ID.test(model))
    add(
      `${field}.model`,
      'A model name is up to 128 letters, digits and . _ : / @ -, starting with a letter or digit',
    );
  const entry = catalog && model ? catalogEntry(catalog, m.provider, model) : undefined;
  const bounds = entry?.parameters;
  const body: Record<string, unknown> = {
    provider: m.provider,
    model,
    temperature: numberIn(
      m.temperature,
      `${field}.temperature`,
      add,
      bounds ? [bounds.temperature_min, bounds.temperature_max] : MODEL_LIMITS.temperature,
      'The temperature',
    ),
    max_tokens: numberIn(
      m.max_tokens,
      `${field}.max_tokens`,
      add,
      [MODEL_LIMITS.maxTokensMin, bounds?.max_tokens_max ?? Number.MAX_SAFE_INTEGER],
      'The longest reply',
      true,
    ),
    top_p: numberIn(m.top_p, `${field}.top_p`, add, MODEL_LIMITS.topP, 'Top p'),
    voice: m.voice || null,
  };
  if (m.voice && entry && !entry.capabilities.speech_to_speech) body.voice = null;
  return body;
}

/** The agent's `model` and `fallback_models` as the API takes them, with the rules between them. */
export function modelValues(
  model: ModelDraft | null,
  fallbacks: ModelDraft[],
  catalog: CatalogModel[] | null,
  add: Add,
): { model: Record<string, unknown> | null; fallback_models: Record<string, unknown>[] } {
  if (!model && fallbacks.length)
    add(
      'fallback_models',
      'Fallback models back up the agent’s model: choose a model first, or remove the fallbacks',
    );
  if (fallbacks.length > MODEL_LIMITS.fallbacksMax)
    add('fallback_models', `At most ${MODEL_LIMITS.fallbacksMax} fallback models`);
  const mainKind =
    model && catalog ? catalogEntry(catalog, model.provider, model.model.trim())?.capabilities : undefined;
  fallbacks.forEach((f, i) => {
    const field = `fallback_models.${i}.model`;
    if (!f.provider || !f.model.trim()) return;
    if (model && sameModel(f, model))
      add(field, 'This is the agent’s own model: a fallback is another model');
    else if (fallbacks.findIndex((o) => sameModel(o, f)) < i) add(field, 'This model is already a fallback');
    const kind = catalog ? catalogEntry(catalog, f.provider, f.model.trim())?.capabilities : undefined;
    if (mainKind && kind && kind.speech_to_speech !== mainKind.speech_to_speech)
      add(
        field,
        mainKind.speech_to_speech
          ? 'The agent’s model is speech to speech: its fallbacks must be too'
          : 'The agent’s model is not speech to speech: its fallbacks cannot be',
      );
  });
  return {
    model: model ? modelBody(model, 'model', catalog, add) : null,
    fallback_models: fallbacks.map((f, i) =>
      f.provider
        ? modelBody(f, `fallback_models.${i}`, catalog, add)
        : (add(`fallback_models.${i}.model`, 'Choose a fallback model, or remove it'), {}),
    ),
  };
}

/** How a chosen model would be paid for and reached, in words (null: the account cannot use it). */
function keyWords(entry: CatalogModel): string | null {
  switch (entry.availability) {
    case 'offline':
      return 'which needs no key';
    case 'account_key':
      return entry.provider === 'custom' ? 'on your own model server' : `on your ${entry.provider_label} key`;
    case 'platform':
      return `on the platform’s ${entry.provider_label} key, within the minute price`;
    default:
      return null;
  }
}

/** What a call will run on with these choices, a sentence each: the model, then each fallback in order. */
export function runsOn(model: ModelDraft | null, fallbacks: ModelDraft[], catalog: CatalogModel[]): string[] {
  if (!model)
    return [
      'The deployment’s default model: the model this platform is set up with, else the offline engine. ' +
        'Choose a model to decide yourself.',
    ];
  const describe = (m: ModelDraft): string => {
    const id = m.model.trim();
    if (!id) return `${modelProviderLabel(m.provider, catalog)}: no model chosen yet`;
    const entry = catalogEntry(catalog, m.provider, id);
    const name = modelName(m.provider, id, catalog);
    if (!entry) return `${name}: not in the catalog`;
    const key = keyWords(entry);
    if (!key) return `${name}, which cannot run yet: ${entry.unavailable_reason ?? 'it needs a key'}`;
    return `${name}, ${key}`;
  };
  const lines = [`Calls will run on ${describe(model)}.`];
  const main = catalogEntry(catalog, model.provider, model.model.trim());
  if (main?.capabilities.speech_to_speech)
    lines.push(
      'It hears and speaks itself (speech to speech): the agent’s transcriber and voice are not used.',
    );
  fallbacks
    .filter((f) => f.provider)
    .forEach((f, i) =>
      lines.push(
        `${i === 0 ? 'If it fails before any of its reply is spoken' : 'If that fails too'}: ${describe(f)}.`,
      ),
    );
  return lines;
}

/** The problems of the model fields, for a spec or a caller that only checks them. */
export function modelProblems(
  model: ModelDraft | null,
  fallbacks: ModelDraft[],
  catalog: CatalogModel[] | null,
): FieldError[] {
  const found: FieldError[] = [];
  modelValues(model, fallbacks, catalog, (field, message) => {
    if (!found.some((p) => p.field === field)) found.push({ field, message });
  });
  return found;
}
