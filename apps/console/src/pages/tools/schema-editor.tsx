// The editor of a function's parameters: a form of arguments (name, type, description, required, allowed
// values) or the JSON Schema itself, checked as it is typed; the verdict is announced politely.
import { useEffect, useState } from 'preact/hooks';
import { ApiError } from '../../api.js';
import { useId } from '../../components/ui.js';
import {
  checkParameters,
  ParametersState,
  parametersValue,
  PROPERTY_TYPES,
  PropertyRow,
  rowsToSchema,
  schemaToRows,
} from './schema.js';

function RowEditor({
  row,
  i,
  onChange,
  onRemove,
}: {
  row: PropertyRow;
  i: number;
  onChange: (r: PropertyRow) => void;
  onRemove: () => void;
}) {
  const id = useId(`arg-${i}`);
  return (
    <fieldset class="part">
      <legend>Argument {i + 1}</legend>
      <div class="row">
        <div class="field">
          <label for={`${id}-name`}>Argument {i + 1} name</label>
          <input
            id={`${id}-name`}
            value={row.name}
            onInput={(e) => onChange({ ...row, name: e.currentTarget.value })}
          />
        </div>
        <div class="field">
          <label for={`${id}-type`}>Argument {i + 1} type</label>
          <select
            id={`${id}-type`}
            value={row.type}
            onChange={(e) => onChange({ ...row, type: e.currentTarget.value, choices: [] })}
          >
            {PROPERTY_TYPES.map(([v, t]) => (
              <option key={v} value={v}>
                {t}
              </option>
            ))}
          </select>
        </div>
        <div class="field check">
          <input
            type="checkbox"
            id={`${id}-req`}
            checked={row.required}
            onChange={(e) => onChange({ ...row, required: e.currentTarget.checked })}
          />
          <label for={`${id}-req`}>Argument {i + 1} required</label>
        </div>
      </div>
      <div class="field">
        <label for={`${id}-desc`}>Argument {i + 1} description</label>
        <input
          id={`${id}-desc`}
          value={row.description}
          onInput={(e) => onChange({ ...row, description: e.currentTarget.value })}
        />
        <small class="muted">Tells the model what to pass</small>
      </div>
      {row.type === 'string' && (
        <div class="field">
          <label for={`${id}-choices`}>Argument {i + 1} allowed values</label>
          <input
            id={`${id}-choices`}
            value={row.choices.join(', ')}
            onInput={(e) => onChange({ ...row, choices: e.currentTarget.value.split(',') })}
          />
          <small class="muted">Comma-separated; empty: any text</small>
        </div>
      )}
      <button type="button" class="secondary" onClick={onRemove}>
        Remove argument {i + 1}
      </button>
    </fieldset>
  );
}

export function ParametersEditor({
  state,
  onChange,
  error,
}: {
  state: ParametersState;
  onChange: (s: ParametersState) => void;
  /** The API's answer: its message for `parameters` shows here too. */
  error: ApiError | null;
}) {
  const id = useId('params');
  const [switchProblem, setSwitchProblem] = useState<string | null>(null);
  const { problem } = parametersValue(state);
  // The save's message about the schema holds for the schema it was about, not for one edited since.
  const [answered, setAnswered] = useState<string | null>(null);
  useEffect(() => setAnswered(error ? JSON.stringify(state) : null), [error]);
  const apiMessage = answered === JSON.stringify(state) ? error?.fieldMessage('parameters') : undefined;
  const toJson = () => {
    const { schema } = rowsToSchema(state.rows);
    setSwitchProblem(null);
    onChange({ ...state, mode: 'json', text: JSON.stringify(schema, null, 2) });
  };
  const toForm = () => {
    const { schema, problem: p } = checkParameters(state.text);
    const rows = schema ? schemaToRows(schema) : null;
    if (!rows) {
      setSwitchProblem(
        p
          ? `Fix the JSON first: ${p}`
          : 'This schema uses more than the form shows (nested objects, $ref, other keywords): keep editing it as JSON.',
      );
      return;
    }
    setSwitchProblem(null);
    onChange({ ...state, mode: 'form', rows });
  };
  return (
    <fieldset class="group">
      <legend>Parameters</legend>
      <p class="muted">
        The arguments the model passes, as a JSON Schema of type object. They are checked before any request
        leaves. <code>pattern</code> is not accepted; <code>$ref</code> only within the schema.
      </p>
      <div class="row" role="group" aria-label="Edit parameters as">
        <button type="button" class="secondary" aria-pressed={state.mode === 'form'} onClick={toForm}>
          Form
        </button>
        <button type="button" class="secondary" aria-pressed={state.mode === 'json'} onClick={toJson}>
          JSON
        </button>
      </div>
      <p class="error" aria-live="polite">
        {switchProblem ?? ''}
      </p>
      {state.mode === 'form' ? (
        <>
          {state.rows.map((r, i) => (
            <RowEditor
              key={i}
              row={r}
              i={i}
              onChange={(row) => onChange({ ...state, rows: state.rows.map((x, j) => (j === i ? row : x)) })}
              onRemove={() => onChange({ ...state, rows: state.rows.filter((_, j) => j !== i) })}
            />
          ))}
          {state.rows.length === 0 && <p class="muted">No arguments: the function is called without any.</p>}
          <button
            type="button"
            class="secondary"
            onClick={() =>
              onChange({
                ...state,
                rows: [
                  ...state.rows,
                  { name: '', type: 'string', description: '', required: false, choices: [] },
                ],
              })
            }
          >
            Add an argument
          </button>
        </>
      ) : (
        <div class="field">
          <label for={id}>Parameters JSON Schema</label>
          <textarea
            id={id}
            rows={12}
            spellcheck={false}
            value={state.text}
            aria-invalid={Boolean(problem || apiMessage)}
            aria-describedby={`${id}-check`}
            onInput={(e) => onChange({ ...state, text: e.currentTarget.value })}
          />
        </div>
      )}
      <div id={`${id}-check`} class={problem || apiMessage ? 'error' : 'ok'} aria-live="polite">
        {problem ?? apiMessage ?? 'The schema follows the rules.'}
      </div>
    </fieldset>
  );
}
