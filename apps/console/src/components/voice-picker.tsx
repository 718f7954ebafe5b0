// Choosing a voice from the account's catalog: filters by language, gender and provider, and each voice's
// preview (its preview text spoken, GET /voice-configurations/{id}/preview) played in the page.
import { useEffect, useRef, useState } from 'preact/hooks';
import { ApiError } from '../api.js';
import { ErrorNotice, useId } from './ui.js';

export interface CatalogVoice {
  /** `vc_` + the voice_id. */
  id: string;
  display_name: string;
  description: string;
  provider: string;
  model_name: string;
  tier: string;
  language: string;
  gender: string;
  availability: string;
}

/** The voice_id an agent takes: the UUID of the configuration id. */
export const voiceIdOf = (v: CatalogVoice) => v.id.replace(/^vc_/, '');

const AVAILABILITY: Record<string, string> = {
  account_key: 'your provider key',
  platform: 'platform key',
  offline: 'offline engine',
  development_stand_in: 'development stand-in',
};

export const voiceLabel = (v: CatalogVoice) =>
  `${v.display_name} (${v.language}, ${v.gender}, ${v.provider})`;

/**
 * Plays voice previews: one audio element for the page, fed the preview's WAV as a blob (so an error the API
 * answers is shown in words instead of a silent player).
 */
export function usePreview() {
  const [playing, setPlaying] = useState<{ id: string; url: string; name: string } | null>(null);
  const [loading, setLoading] = useState<string | null>(null);
  const [error, setError] = useState<ApiError | null>(null);
  const audio = useRef<HTMLAudioElement>(null);
  useEffect(() => () => (playing ? URL.revokeObjectURL(playing.url) : undefined), [playing]);
  useEffect(() => {
    audio.current?.play().catch(() => undefined);
  }, [playing]);
  const play = async (v: CatalogVoice) => {
    setError(null);
    setLoading(v.id);
    try {
      const res = await fetch(`/console/api/v2/voice-configurations/${encodeURIComponent(v.id)}/preview`, {
        credentials: 'same-origin',
      });
      if (!res.ok) {
        const body = (await res.json().catch(() => ({}))) as { error?: { code?: string; message?: string } };
        throw new ApiError(
          res.status,
          body.error?.code ?? 'ERROR',
          body.error?.message ?? `The preview could not be played (HTTP ${res.status}).`,
        );
      }
      const blob = await res.blob();
      setPlaying({ id: v.id, url: URL.createObjectURL(blob), name: v.display_name });
    } catch (err) {
      setError(
        err instanceof ApiError ? err : new ApiError(0, 'NETWORK_ERROR', 'The preview could not be loaded.'),
      );
    } finally {
      setLoading(null);
    }
  };
  const player = (
    <div class="preview" aria-live="polite">
      <ErrorNotice error={error} />
      {playing && (
        <p>
          <span class="muted">Preview of {playing.name}: </span>
          <audio ref={audio} controls src={playing.url} aria-label={`Preview of ${playing.name}`} />
        </p>
      )}
    </div>
  );
  return { play, loading, player };
}

/** A filterable list of voices as radio buttons, each with a play button; the chosen one stays shown. */
export function VoicePicker({
  voices,
  value,
  onChange,
  error,
  name = 'voice_id',
  disabled,
}: {
  voices: CatalogVoice[];
  value: string;
  onChange: (voiceId: string) => void;
  error?: ApiError | null;
  name?: string;
  disabled?: boolean;
}) {
  const [filters, setFilters] = useState({ language: '', gender: '', provider: '' });
  const { play, loading, player } = usePreview();
  const base = useId('voices');
  const distinct = (key: 'language' | 'gender' | 'provider') =>
    [...new Set(voices.map((v) => v[key]))].sort();
  const shown = voices.filter(
    (v) =>
      (!filters.language || v.language === filters.language) &&
      (!filters.gender || v.gender === filters.gender) &&
      (!filters.provider || v.provider === filters.provider),
  );
  const chosen = voices.find((v) => voiceIdOf(v) === value);
  const message = error?.fieldMessage(name);
  const filter = (key: 'language' | 'gender' | 'provider', label: string, any: string) => (
    <div class="field">
      <label for={`${base}-${key}`}>{label}</label>
      <select
        id={`${base}-${key}`}
        value={filters[key]}
        onChange={(e) => setFilters({ ...filters, [key]: e.currentTarget.value })}
      >
        <option value="">{any}</option>
        {distinct(key).map((o) => (
          <option key={o} value={o}>
            {o}
          </option>
        ))}
      </select>
    </div>
  );
  return (
    <fieldset class="group" disabled={disabled}>
      <legend>Voice</legend>
      <p id={`${base}-chosen`} aria-live="polite">
        {chosen ? (
          <>
            Chosen: <strong>{voiceLabel(chosen)}</strong>
          </>
        ) : value ? (
          'The chosen voice is not in your catalog any more.'
        ) : (
          'No voice chosen yet.'
        )}
      </p>
      {message && (
        <div id={`${base}-error`} class="error" role="alert">
          {message}
        </div>
      )}
      <div class="row" role="group" aria-label="Filter voices">
        {filter('language', 'Language', 'Any language')}
        {filter('gender', 'Gender', 'Any gender')}
        {filter('provider', 'Provider', 'Any provider')}
      </div>
      <p class="muted" aria-live="polite">
        {shown.length} of {voices.length} voices
      </p>
      <table class="voices">
        <caption class="sr-only">Voices</caption>
        <thead>
          <tr>
            <th scope="col">Voice</th>
            <th scope="col">Language</th>
            <th scope="col">Gender</th>
            <th scope="col">Provider</th>
            <th scope="col">Runs on</th>
            <th scope="col">Preview</th>
          </tr>
        </thead>
        <tbody>
          {shown.map((v) => {
            const id = voiceIdOf(v);
            return (
              <tr key={v.id} class={id === value ? 'chosen' : undefined}>
                <td>
                  <input
                    type="radio"
                    name={`${base}-voice`}
                    id={`${base}-${id}`}
                    value={id}
                    checked={id === value}
                    aria-describedby={message ? `${base}-error` : undefined}
                    onChange={() => onChange(id)}
                  />{' '}
                  <label for={`${base}-${id}`} class="inline">
                    {v.display_name}
                  </label>
                  {v.description && <div class="muted small">{v.description}</div>}
                </td>
                <td>{v.language}</td>
                <td>{v.gender}</td>
                <td>
                  {v.provider} <span class="muted small">{v.model_name}</span>
                </td>
                <td>{AVAILABILITY[v.availability] ?? v.availability}</td>
                <td>
                  <button
                    type="button"
                    class="secondary"
                    aria-label={`Play ${v.display_name}`}
                    disabled={loading === v.id}
                    onClick={() => play(v)}
                  >
                    {loading === v.id ? 'Loading…' : 'Play'}
                  </button>
                </td>
              </tr>
            );
          })}
          {shown.length === 0 && (
            <tr>
              <td colSpan={6} class="muted">
                No voice matches these filters.
              </td>
            </tr>
          )}
        </tbody>
      </table>
      {player}
    </fieldset>
  );
}
