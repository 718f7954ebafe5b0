// Labelled form controls built on Field (label, hint and the API's message for the field), and editors for
// lists and maps (add and remove rows) so that no page asks a person to type JSON.
import { ApiError } from '../api.js';
import type { Pair } from './pairs.js';
import { Field, useId } from './ui.js';

interface Common {
  label: string;
  /** The API's name of the field (dotted for nested ones): its validation message is shown here. */
  name: string;
  error?: ApiError | null;
  hint?: string;
}

export function TextInput({
  value,
  onChange,
  type = 'text',
  required,
  placeholder,
  ...common
}: Common & {
  value: string;
  onChange: (v: string) => void;
  type?: 'text' | 'url' | 'tel' | 'number' | 'password';
  required?: boolean;
  placeholder?: string;
}) {
  return (
    <Field {...common}>
      {(p) => (
        <input
          {...p}
          type={type}
          required={required}
          placeholder={placeholder}
          value={value}
          onInput={(e) => onChange(e.currentTarget.value)}
          {...(type === 'number' ? { inputMode: 'numeric' } : {})}
        />
      )}
    </Field>
  );
}

export function TextArea({
  value,
  onChange,
  rows,
  ...common
}: Common & { value: string; onChange: (v: string) => void; rows?: number }) {
  return (
    <Field {...common}>
      {(p) => (
        <textarea
          {...p}
          class="prose"
          rows={rows}
          value={value}
          onInput={(e) => onChange(e.currentTarget.value)}
        />
      )}
    </Field>
  );
}

export function Select({
  value,
  onChange,
  options,
  ...common
}: Common & { value: string; onChange: (v: string) => void; options: [string, string][] }) {
  return (
    <Field {...common}>
      {(p) => (
        <select {...p} value={value} onChange={(e) => onChange(e.currentTarget.value)}>
          {options.map(([v, text]) => (
            <option key={v} value={v}>
              {text}
            </option>
          ))}
        </select>
      )}
    </Field>
  );
}

/** A checkbox with its label beside it, a hint and the API's message for the field. */
export function Checkbox({
  label,
  name,
  error,
  hint,
  checked,
  onChange,
}: Common & { checked: boolean; onChange: (v: boolean) => void }) {
  const id = useId(`cb-${name.replace(/\W/g, '-')}`);
  const message = error?.fieldMessage(name);
  const describedBy = [hint ? `${id}-hint` : '', message ? `${id}-error` : ''].filter(Boolean).join(' ');
  return (
    <div class="field check">
      <input
        type="checkbox"
        id={id}
        name={name}
        checked={checked}
        aria-invalid={Boolean(message)}
        {...(describedBy ? { 'aria-describedby': describedBy } : {})}
        onChange={(e) => onChange(e.currentTarget.checked)}
      />
      <label for={id}>{label}</label>
      {hint && (
        <small id={`${id}-hint`} class="muted">
          {hint}
        </small>
      )}
      {message && (
        <div id={`${id}-error`} class="error" role="alert">
          {message}
        </div>
      )}
    </div>
  );
}

/** A group of checkboxes choosing several of a fixed list (e.g. languages), as a fieldset with a legend. */
export function CheckboxGroup({
  legend,
  name,
  error,
  hint,
  options,
  value,
  onChange,
}: {
  legend: string;
  name: string;
  error?: ApiError | null;
  hint?: string;
  options: [string, string][];
  value: string[];
  onChange: (v: string[]) => void;
}) {
  const message = error?.fieldMessage(name);
  const base = useId(`cg-${name.replace(/\W/g, '-')}`);
  return (
    <fieldset class="group" aria-describedby={message ? `${base}-error` : hint ? `${base}-hint` : undefined}>
      <legend>{legend}</legend>
      {hint && (
        <small id={`${base}-hint`} class="muted block">
          {hint}
        </small>
      )}
      <div class="inline-options">
        {options.map(([v, text]) => (
          <span key={v} class="inline-option">
            <input
              type="checkbox"
              id={`${base}-${v}`}
              checked={value.includes(v)}
              onChange={(e) => {
                const on = e.currentTarget.checked;
                onChange(on ? [...value.filter((x) => x !== v), v] : value.filter((x) => x !== v));
              }}
            />{' '}
            <label for={`${base}-${v}`}>{text}</label>
          </span>
        ))}
      </div>
      {message && (
        <div id={`${base}-error`} class="error" role="alert">
          {message}
        </div>
      )}
    </fieldset>
  );
}

/** A list of short texts, one row each, with add and remove buttons. */
export function TextList({
  legend,
  itemLabel,
  name,
  error,
  hint,
  value,
  onChange,
  max,
  addLabel,
}: {
  legend: string;
  /** The accessible name of one row's input, numbered ("Phrase 1"). */
  itemLabel: string;
  name: string;
  error?: ApiError | null;
  hint?: string;
  value: string[];
  onChange: (v: string[]) => void;
  max?: number;
  addLabel: string;
}) {
  const message = error?.fieldMessage(name);
  const base = useId(`tl-${name.replace(/\W/g, '-')}`);
  return (
    <fieldset class="group">
      <legend>{legend}</legend>
      {hint && <small class="muted block">{hint}</small>}
      {value.map((item, i) => {
        const itemMessage = error?.fieldMessage(`${name}.${i}`);
        return (
          <div class="row list-row" key={i}>
            <div class="field">
              <label for={`${base}-${i}`} class="sr-only">
                {itemLabel} {i + 1}
              </label>
              <input
                id={`${base}-${i}`}
                value={item}
                aria-invalid={Boolean(itemMessage)}
                onInput={(e) => onChange(value.map((v, j) => (j === i ? e.currentTarget.value : v)))}
              />
              {itemMessage && (
                <div class="error" role="alert">
                  {itemMessage}
                </div>
              )}
            </div>
            <button
              type="button"
              class="secondary"
              aria-label={`Remove ${itemLabel.toLowerCase()} ${i + 1}`}
              onClick={() => onChange(value.filter((_, j) => j !== i))}
            >
              Remove
            </button>
          </div>
        );
      })}
      {(max === undefined || value.length < max) && (
        <button type="button" class="secondary" onClick={() => onChange([...value, ''])}>
          {addLabel}
        </button>
      )}
      {message && (
        <div class="error" role="alert">
          {message}
        </div>
      )}
    </fieldset>
  );
}

/** A map of names to values (headers, variables), one row each, with add and remove buttons. */
export function PairList({
  legend,
  keyLabel,
  valueLabel,
  name,
  error,
  hint,
  value,
  onChange,
  max,
  addLabel,
  valuePlaceholder,
}: {
  legend: string;
  keyLabel: string;
  valueLabel: string;
  name: string;
  error?: ApiError | null;
  hint?: string;
  value: Pair[];
  onChange: (v: Pair[]) => void;
  max?: number;
  addLabel: string;
  valuePlaceholder?: string;
}) {
  const message = error?.fieldMessage(name);
  const base = useId(`pl-${name.replace(/\W/g, '-')}`);
  const set = (i: number, part: Partial<Pair>) =>
    onChange(value.map((p, j) => (j === i ? { ...p, ...part } : p)));
  return (
    <fieldset class="group">
      <legend>{legend}</legend>
      {hint && <small class="muted block">{hint}</small>}
      {value.map((pair, i) => (
        <div class="row list-row" key={i}>
          <div class="field">
            <label for={`${base}-k-${i}`}>
              {keyLabel} {i + 1}
            </label>
            <input
              id={`${base}-k-${i}`}
              value={pair.key}
              onInput={(e) => set(i, { key: e.currentTarget.value })}
            />
          </div>
          <div class="field">
            <label for={`${base}-v-${i}`}>
              {valueLabel} {i + 1}
            </label>
            <input
              id={`${base}-v-${i}`}
              value={pair.value}
              placeholder={valuePlaceholder}
              onInput={(e) => set(i, { value: e.currentTarget.value })}
            />
          </div>
          <button
            type="button"
            class="secondary"
            aria-label={`Remove ${keyLabel.toLowerCase()} ${i + 1}`}
            onClick={() => onChange(value.filter((_, j) => j !== i))}
          >
            Remove
          </button>
        </div>
      ))}
      {(max === undefined || value.length < max) && (
        <button type="button" class="secondary" onClick={() => onChange([...value, { key: '', value: '' }])}>
          {addLabel}
        </button>
      )}
      {message && (
        <div class="error" role="alert">
          {message}
        </div>
      )}
    </fieldset>
  );
}

/**
 * A save's error as a person reads it: the message, then each field's message (shown at its field too),
 * without the API's field names.
 */
export function FormErrorNotice({ error }: { error: ApiError | null }) {
  if (!error) return null;
  return (
    <div class="card error" role="alert">
      <strong>{error.details.length ? 'Some fields need attention:' : error.message}</strong>
      {error.details.length > 0 && (
        <ul>
          {error.details.map((d) => (
            <li key={d.field}>{d.message}</li>
          ))}
        </ul>
      )}
    </div>
  );
}

/** One choice of a few, each option with its explanation, as a fieldset of radio buttons with a legend. */
export function RadioGroup({
  legend,
  name,
  error,
  hint,
  options,
  value,
  onChange,
}: {
  legend: string;
  name: string;
  error?: ApiError | null;
  hint?: string;
  /** Value, label and an optional explanation of each option. */
  options: [string, string, string?][];
  value: string;
  onChange: (v: string) => void;
}) {
  const message = error?.fieldMessage(name);
  const base = useId(`rg-${name.replace(/\W/g, '-')}`);
  const describedBy = [hint ? `${base}-hint` : '', message ? `${base}-error` : ''].filter(Boolean).join(' ');
  return (
    <fieldset class="group" {...(describedBy ? { 'aria-describedby': describedBy } : {})}>
      <legend>{legend}</legend>
      {hint && (
        <small id={`${base}-hint`} class="muted block">
          {hint}
        </small>
      )}
      {options.map(([v, text, explanation]) => (
        <div key={v} class="field check">
          <input
            type="radio"
            id={`${base}-${v}`}
            name={`${base}-${name}`}
            value={v}
            checked={value === v}
            aria-invalid={Boolean(message)}
            {...(explanation ? { 'aria-describedby': `${base}-${v}-hint` } : {})}
            onChange={() => onChange(v)}
          />
          <label for={`${base}-${v}`}>{text}</label>
          {explanation && (
            <small id={`${base}-${v}-hint`} class="muted">
              {explanation}
            </small>
          )}
        </div>
      ))}
      {message && (
        <div id={`${base}-error`} class="error" role="alert">
          {message}
        </div>
      )}
    </fieldset>
  );
}
