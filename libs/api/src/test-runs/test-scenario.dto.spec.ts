import { plainToInstance } from 'class-transformer';
import { validateSync } from 'class-validator';
import { assertionProblems, assertionsProblems } from './test-assertions';
import { TEST_ASSERTIONS_MAX } from './test-limits';
import { CreateTestScenarioDto, UpdateTestScenarioDto } from './test-scenario.dto';
import { CreateTestRunDto } from './test-run.dto';

/** Each failing property with its messages, as the validation pipe reports them (nested: parent.child). */
function problems(cls: new () => object, body: unknown): Record<string, string[]> {
  const out: Record<string, string[]> = {};
  const walk = (errors: ReturnType<typeof validateSync>, prefix: string) => {
    for (const e of errors) {
      const at = prefix ? `${prefix}.${e.property}` : e.property;
      if (e.constraints) out[at] = Object.values(e.constraints);
      if (e.children?.length) walk(e.children, at);
    }
  };
  walk(
    validateSync(plainToInstance(cls, body) as object, { whitelist: true, forbidNonWhitelisted: true }),
    '',
  );
  return out;
}

const VALID = {
  name: 'Books a table',
  mode: 'scripted',
  lines: [{ text: 'Hello.' }, { text: 'Goodbye.', pause_ms: 300 }],
  assertions: [
    {
      kind: 'tool_called',
      tool: 'end_call',
      arguments: { reason: 'done' },
      arguments_schema: { type: 'object', required: ['reason'] },
    },
    { kind: 'transcript_not_contains', text: 'competitor', role: 'agent' },
    { kind: 'end_reason', equals: 'agent_ended' },
    { kind: 'extraction', key: 'party_size', equals: 2 },
    { kind: 'latency', max_ms: 3000 },
  ],
  judge: { rubric: 'The agent is polite.', pass_threshold: 0.6 },
};

describe('test scenario validation', () => {
  it('takes a complete scenario', () => {
    expect(problems(CreateTestScenarioDto, VALID)).toEqual({});
  });

  it('names the missing and wrong top-level fields', () => {
    const found = problems(CreateTestScenarioDto, { mode: 'improvised', lines: [] });
    expect(found.name).toContain('name is required');
    expect(found.mode).toEqual(['mode must be scripted or simulated']);
    expect(found.lines).toContain('lines must hold at least one line');
  });

  it('names a wrong line field and the judge threshold', () => {
    const found = problems(CreateTestScenarioDto, {
      ...VALID,
      lines: [{ text: '', pause_ms: 20_000 }],
      judge: { rubric: 'x', pass_threshold: 2 },
    });
    expect(found['lines.0.text']).toEqual(['lines[].text must be 1 to 300 characters']);
    expect(found['lines.0.pause_ms']).toEqual(['lines[].pause_ms must be 0 to 10000']);
    expect(found['judge.pass_threshold']).toEqual(['judge.pass_threshold must be a number from 0 to 1']);
  });

  it('reports the first wrong assertion field by its index', () => {
    const found = problems(CreateTestScenarioDto, {
      ...VALID,
      assertions: [{ kind: 'tool_called', tool: 'end_call' }, { kind: 'tool_called' }],
    });
    expect(found.assertions).toEqual(['assertions[1].tool is required']);
  });

  it('bounds variables and refuses unknown fields', () => {
    const big = Object.fromEntries(Array.from({ length: 51 }, (_, i) => [`k${i}`, i]));
    const found = problems(CreateTestScenarioDto, { ...VALID, variables: big, extra: 1 });
    expect(found.variables?.[0]).toMatch(/at most 50 keys/);
    expect(found.extra).toBeDefined();
  });

  it('lets an update name only what changes', () => {
    expect(problems(UpdateTestScenarioDto, { name: 'Renamed' })).toEqual({});
    expect(problems(UpdateTestScenarioDto, { lines: [] }).lines).toContain(
      'lines must hold at least one line',
    );
  });
});

describe('assertion problems', () => {
  it('knows every kind and its fields', () => {
    expect(assertionProblems({ kind: 'sings' }, 0)[0]).toMatch(
      /^assertions\[0\]\.kind must be one of tool_called/,
    );
    expect(assertionProblems({ kind: 'tool_not_called', tool: 'x', text: 'y' }, 3)).toEqual([
      'assertions[3].text is not a field of a tool_not_called assertion',
    ]);
    expect(assertionProblems({ kind: 'latency', max_ms: 0 }, 0)).toEqual([
      'assertions[0].max_ms must be a whole number of milliseconds from 1 to 60000',
    ]);
    expect(assertionProblems({ kind: 'transcript_contains', text: 'hi', role: 'bot' }, 0)).toEqual([
      'assertions[0].role must be one of agent, caller, any',
    ]);
    expect(assertionProblems({ kind: 'extraction', key: 'a' }, 0)).toEqual([
      'assertions[0].equals is required',
    ]);
  });

  it('checks the argument schema keyword by keyword', () => {
    expect(
      assertionProblems(
        { kind: 'tool_called', tool: 't', arguments_schema: { type: 'thing', oneOf: [] } },
        0,
      ),
    ).toEqual([
      'assertions[0].arguments_schema.oneOf is not supported (use type, required, properties, enum, minimum, maximum, items)',
      'assertions[0].arguments_schema.type must be one of object, array, string, number, integer, boolean, null',
    ]);
  });

  it('refuses a regular expression anywhere in the argument schema', () => {
    const refused = (schema: Record<string, unknown>, path: string) =>
      expect(assertionProblems({ kind: 'tool_called', tool: 't', arguments_schema: schema }, 0)).toEqual([
        `assertions[0].arguments_schema${path}: regular expressions are not accepted in a scenario (use enum, or a transcript assertion)`,
      ]);
    refused({ type: 'string', pattern: '^(a+)+$' }, '.pattern');
    refused({ properties: { when: { pattern: '^(a+)+$' } } }, '.properties.when.pattern');
    refused({ items: { items: { patternProperties: { '^x': {} } } } }, '.items.items.patternProperties');
    refused({ properties: { a: { anyOf: [{ pattern: 'x' }] } } }, '.properties.a.anyOf[0].pattern');
    // A property named "pattern" is a name, and an enum value is data: neither is a regex.
    expect(
      assertionProblems(
        {
          kind: 'tool_called',
          tool: 't',
          arguments_schema: { properties: { pattern: { enum: [{ pattern: 'x' }] } } },
        },
        0,
      ),
    ).toEqual([]);
  });

  it('bounds the list', () => {
    const many = Array.from({ length: TEST_ASSERTIONS_MAX + 1 }, () => ({
      kind: 'tool_not_called',
      tool: 'x',
    }));
    expect(assertionsProblems(many)).toEqual([`assertions holds at most ${TEST_ASSERTIONS_MAX} items`]);
    expect(assertionsProblems('x')).toEqual(['assertions must be an array']);
  });
});

describe('test run validation', () => {
  it('takes scenario ids and 1 to 5 repetitions', () => {
    expect(
      problems(CreateTestRunDto, {
        agent_id: '0d3b2c1a-1111-4222-8333-444455556666',
        scenario_ids: ['tsc_2f1c0a8e-3b7d-4c55-9a0e-6f1d2b3c4d5e'],
        repetitions: 5,
      }),
    ).toEqual({});
    const found = problems(CreateTestRunDto, { agent_id: 'x', scenario_ids: ['cmp_1'], repetitions: 6 });
    expect(found.agent_id).toEqual(['agent_id must be an agent id (UUID)']);
    expect(found.scenario_ids).toEqual(['scenario_ids must hold scenario ids (tsc_<uuid>)']);
    expect(found.repetitions).toEqual(['repetitions must be a whole number from 1 to 5']);
  });
});
