// Charts drawn as inline SVG (no library): per-turn latency, and amounts per day. Each has a text
// alternative, a table, for screen readers and for reading exact values.

export interface TurnLatency {
  stt_final_ms?: number;
  llm_first_token_ms?: number;
  tts_first_byte_ms?: number;
  first_frame_out_ms?: number;
  voice_to_voice_ms?: number;
}

const STAGES: [keyof TurnLatency, string, string][] = [
  ['stt_final_ms', 'Final transcript', '#7aa2e3'],
  ['llm_first_token_ms', 'Model first token', '#2c5cc5'],
  ['tts_first_byte_ms', 'Speech first byte', '#e08a2b'],
  ['first_frame_out_ms', 'First audio out', '#1e7b34'],
];

/** A bar per turn (voice to voice), with the pipeline's moments marked on it. */
export function LatencyChart({ turns }: { turns: TurnLatency[] }) {
  if (turns.length === 0) return <p class="muted">No measured turns.</p>;
  const max = Math.max(1, ...turns.map((t) => Math.max(t.voice_to_voice_ms ?? 0, t.first_frame_out_ms ?? 0)));
  const rowH = 22;
  const width = 640;
  const left = 60;
  const scale = (ms: number) => left + ((width - left - 10) * ms) / max;
  return (
    <>
      <svg
        class="chart"
        viewBox={`0 0 ${width} ${turns.length * rowH + 30}`}
        role="img"
        aria-label="Latency per turn, in milliseconds"
      >
        {turns.map((t, i) => (
          <g key={i} transform={`translate(0, ${i * rowH})`}>
            <text x="4" y="15">
              Turn {i + 1}
            </text>
            <rect
              x={left}
              y="4"
              width={Math.max(1, scale(t.voice_to_voice_ms ?? t.first_frame_out_ms ?? 0) - left)}
              height="14"
              fill="#d9e2f6"
            />
            {STAGES.map(([key, , color]) =>
              t[key] !== undefined ? (
                <rect key={key} x={scale(t[key]!) - 1} y="2" width="3" height="18" fill={color} />
              ) : null,
            )}
          </g>
        ))}
        <text x={left} y={turns.length * rowH + 20}>
          0
        </text>
        <text x={width - 60} y={turns.length * rowH + 20}>
          {Math.round(max)} ms
        </text>
      </svg>
      <table>
        <caption class="muted">Latency per turn (ms)</caption>
        <thead>
          <tr>
            <th scope="col">Turn</th>
            {STAGES.map(([key, label, color]) => (
              <th key={key} scope="col">
                <span aria-hidden="true" style={`color:${color}`}>
                  ■
                </span>{' '}
                {label}
              </th>
            ))}
            <th scope="col">Voice to voice</th>
          </tr>
        </thead>
        <tbody>
          {turns.map((t, i) => (
            <tr key={i}>
              <td>{i + 1}</td>
              {STAGES.map(([key]) => (
                <td key={key}>{t[key] ?? '—'}</td>
              ))}
              <td>{t.voice_to_voice_ms ?? '—'}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </>
  );
}

/** Vertical bars of one value per day. */
export function DailyBars({
  days,
  label,
  unit,
}: {
  days: { day: string; value: number }[];
  label: string;
  unit: string;
}) {
  if (days.length === 0) return <p class="muted">Nothing in this range.</p>;
  const max = Math.max(1e-9, ...days.map((d) => d.value));
  const width = 640;
  const height = 160;
  const barW = Math.max(2, Math.floor((width - 20) / days.length) - 2);
  return (
    <svg class="chart" viewBox={`0 0 ${width} ${height + 20}`} role="img" aria-label={`${label} per day`}>
      {days.map((d, i) => {
        const h = Math.round((height * d.value) / max);
        return (
          <rect key={d.day} x={10 + i * (barW + 2)} y={height - h} width={barW} height={h} fill="#2c5cc5">
            <title>
              {d.day}: {d.value} {unit}
            </title>
          </rect>
        );
      })}
      <text x="10" y={height + 15}>
        {days[0].day}
      </text>
      <text x={width - 80} y={height + 15}>
        {days[days.length - 1].day}
      </text>
    </svg>
  );
}
