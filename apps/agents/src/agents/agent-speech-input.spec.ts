import { CreateAgentDto, CreateDictionaryDto, normalizeTranscriber, UpdateAgentDto } from '@vap/api';
import { AppError, ErrorDetail } from '@vap/messages';
import { createValidationPipe } from '@vap/messaging';

const pipe = createValidationPipe();

/** The details of the 400 the platform's validation answers for a body, or [] when it passes. */
async function problems(
  metatype: typeof CreateAgentDto | typeof UpdateAgentDto | typeof CreateDictionaryDto,
  body: object,
) {
  try {
    await pipe.transform(body, { type: 'body', metatype });
    return [];
  } catch (error) {
    expect(error).toBeInstanceOf(AppError);
    return ((error as AppError).details ?? []) as ErrorDetail[];
  }
}

const agent = (fields: object) => ({
  agent_name: 'Speech test',
  prompt: 'Be helpful.',
  voice_id: '72158370-d269-49a5-ae65-8f33fe3b890b',
  agent_type: 'outbound',
  ...fields,
});

describe('agent speech fields: input validation', () => {
  it('takes a full transcriber, a fallback, fallback voices and dictionaries', async () => {
    expect(
      await problems(
        CreateAgentDto,
        agent({
          transcriber: {
            provider: 'deepgram',
            model: 'nova-3',
            languages: ['en'],
            keyterms: ['Ravigo', 'Acme'],
            options: { smart_format: true, endpointing_ms: 300 },
          },
          fallback_transcriber: {
            provider: 'assemblyai',
            options: { end_of_turn_confidence_threshold: 0.5 },
          },
          fallback_voice_ids: ['59a54a7b-b1fe-408f-9712-42425051c1cc'],
          dictionary_ids: ['0c5e6a1c-8d1e-4a1b-9f0e-3f7b2a9d6c11'],
        }),
      ),
    ).toEqual([]);
    expect(
      await problems(UpdateAgentDto, { transcriber: null, fallback_voice_ids: null, dictionary_ids: [] }),
    ).toEqual([]);
  });

  it.each([
    [
      { transcriber: { provider: 'whisper' } },
      'transcriber.provider',
      /provider must be one of offline, local, openai/,
    ],
    [{ transcriber: {} }, 'transcriber.provider', /provider is required/],
    [{ transcriber: 'deepgram' }, 'transcriber', /transcriber must be either object/],
    [{ transcriber: { provider: 'deepgram', model: '' } }, 'transcriber.model', /1 to 64 characters/],
    [
      { transcriber: { provider: 'deepgram', languages: ['xx'] } },
      'transcriber.languages',
      /spoken_languages codes/,
    ],
    [
      { transcriber: { provider: 'deepgram', keyterms: Array.from({ length: 51 }, (_, i) => `term${i}`) } },
      'transcriber.keyterms',
      /at most 50 terms/,
    ],
    [
      { transcriber: { provider: 'deepgram', keyterms: ['ok', 'x'.repeat(65)] } },
      'transcriber.keyterms',
      /keyterms\[1\] must be a non-blank text of at most 64 characters/,
    ],
    [{ transcriber: { provider: 'deepgram', keyterms: ['  '] } }, 'transcriber.keyterms', /keyterms\[0\]/],
    [
      { transcriber: { provider: 'deepgram', options: { endpointing_ms: 5 } } },
      'transcriber.options',
      /^transcriber\.options must hold endpointing_ms as a number from 10 to 2000$/,
    ],
    [
      { transcriber: { provider: 'deepgram', options: { smart_format: 'yes' } } },
      'transcriber.options',
      /options must hold smart_format as a boolean/,
    ],
    [
      { transcriber: { provider: 'deepgram', options: { high_vad_sensitivity: true } } },
      'transcriber.options',
      /^transcriber\.options may not hold high_vad_sensitivity: it is not an option of deepgram \(its options: smart_format, numerals, endpointing_ms\)$/,
    ],
    [
      { fallback_transcriber: { provider: 'openai', options: { smart_format: true } } },
      'fallback_transcriber.options',
      /^fallback_transcriber\.options may not hold smart_format: openai takes no options$/,
    ],
    [{ fallback_voice_ids: 'x' }, 'fallback_voice_ids', /must be an array of voice ids or null/],
    [{ fallback_voice_ids: ['not-a-uuid'] }, 'fallback_voice_ids', /must hold voice UUIDs/],
    [
      {
        fallback_voice_ids: [
          '59a54a7b-b1fe-408f-9712-42425051c1cc',
          'cc011cdd-9474-431b-bf26-144b98289fcd',
          '17f5e837-d708-40fe-919a-72d174c9df6a',
          'b2715945-795e-4229-851a-bd81f1d69ed6',
        ],
      },
      'fallback_voice_ids',
      /at most 3 voices/,
    ],
    [
      {
        fallback_voice_ids: ['59a54a7b-b1fe-408f-9712-42425051c1cc', '59a54a7b-b1fe-408f-9712-42425051c1cc'],
      },
      'fallback_voice_ids',
      /must not repeat an id \(fallback_voice_ids\[1\]\)/,
    ],
    [
      { dictionary_ids: Array.from({ length: 6 }, (_, i) => `0c5e6a1c-8d1e-4a1b-9f0e-3f7b2a9d6c1${i}`) },
      'dictionary_ids',
      /at most 5 dictionaries/,
    ],
  ])('refuses %j naming %s', async (fields, field, message) => {
    const found = await problems(CreateAgentDto, agent(fields));
    expect(found).toEqual([{ field, message: expect.stringMatching(message) }]);
  });

  it('stores keyterms trimmed and once (case-insensitively), and drops empty lists', () => {
    expect(
      normalizeTranscriber({
        provider: 'deepgram',
        keyterms: [' Ravigo ', 'ravigo', 'Acme'],
        languages: [],
        options: {},
      }),
    ).toEqual({ provider: 'deepgram', keyterms: ['Ravigo', 'Acme'] });
    expect(normalizeTranscriber(null)).toBeNull();
  });
});

describe('dictionaries: input validation', () => {
  it('takes words with an alias or IPA', async () => {
    expect(
      await problems(CreateDictionaryDto, {
        name: 'Brands',
        entries: [
          { word: 'Ravigo', alias: 'ruh vee go', ipa: 'ɹəˈviːɡoʊ' },
          { word: 'Acme' },
          { word: 'Nguyen', ipa: 'ŋwiən' },
        ],
      }),
    ).toEqual([]);
  });

  it.each([
    [{ name: '' }, 'name', /name must be 1 to 100 characters/],
    [{ name: 'x', entries: [{ word: '' }] }, 'entries.0.word', /word must be 1 to 64 characters/],
    [{ name: 'x', entries: [{ word: 'a'.repeat(65) }] }, 'entries.0.word', /1 to 64/],
    [{ name: 'x', entries: [{ word: 'a', alias: 'b'.repeat(129) }] }, 'entries.0.alias', /1 to 128/],
    [{ name: 'x', entries: [{ word: 'a', ipa: 'RAVIGO' }] }, 'entries.0.ipa', /IPA characters only/],
    [{ name: 'x', entries: [{ word: 'a', ipa: 'ab<c>' }] }, 'entries.0.ipa', /IPA characters only/],
    [{ name: 'x', entries: [{ word: 'Acme' }, { word: 'ACME ' }] }, 'entries', /entries\[1\]\.word repeats/],
    [
      { name: 'x', entries: Array.from({ length: 501 }, (_, i) => ({ word: `w${i}` })) },
      'entries',
      /at most 500 entries/,
    ],
    [{ name: 'x', entries: [{ word: 'a', extra: 1 }] }, 'entries.0.extra', /not an accepted field/],
  ])('refuses %j naming %s', async (body, field, message) => {
    const found = await problems(CreateDictionaryDto, body);
    expect(found).toEqual([{ field, message: expect.stringMatching(message) }]);
  });
});
