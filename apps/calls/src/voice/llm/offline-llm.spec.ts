import { EffectiveExtractionKey, TranscriptEntry } from '@vap/contracts';
import { OfflineLlm } from './offline-llm';

const key = (
  name: string,
  type: EffectiveExtractionKey['type'],
  description: string,
  options?: string[],
): EffectiveExtractionKey => ({
  name,
  type,
  description,
  options,
  source: 'inline',
  set_id: null,
});

const t = (role: 'user' | 'bot', content: string): TranscriptEntry => ({
  role,
  content,
  timestamp: '2026-01-01T00:00:00.000Z',
});

describe('OfflineLlm', () => {
  const llm = new OfflineLlm();

  it('grounds replies in knowledge-base context when there is some', async () => {
    const reply = await llm.reply({
      prompt: 'You are a helpful agent for Acme.',
      history: [],
      userText: 'What does it cost?',
      knowledge: 'The basic plan costs 10 dollars a month. It includes support. Extra text.',
    });
    expect(reply).toBe(
      'Here is what I can tell you: The basic plan costs 10 dollars a month. It includes support.',
    );
  });

  it('falls back to the agent prompt, deterministically', async () => {
    const input = {
      prompt: 'You are Maya from Acme support. Be brief.',
      history: [],
      userText: 'Who is this?',
      knowledge: null,
    };
    expect(await llm.reply(input)).toBe('Good question. I am Maya from Acme support.');
    expect(await llm.reply(input)).toBe(await llm.reply(input));
  });

  it('extracts values by key type from what the callee said', async () => {
    const values = await llm.extract({
      variables: {},
      keys: [
        key('interested', 'boolean', 'whether the callee is interested in the offer'),
        key('callback_date', 'date', 'date for a callback'),
        key('seats', 'number', 'how many seats they need'),
        key('plan', 'enum', 'plan chosen', ['basic', 'premium']),
        key('budget_owner', 'string', 'who owns the budget'),
      ],
      transcript: [
        t('bot', 'Are you interested in the offer?'),
        t('user', 'Yes, I am interested in the offer. We need 12 seats.'),
        t('user', 'Please call me back on March 3rd, 2027. The premium plan sounds right.'),
      ],
    });
    expect(values).toEqual({
      interested: true,
      callback_date: '2027-03-03',
      seats: 12,
      plan: 'premium',
      budget_owner: null,
    });
  });

  it('reads a negation as false', async () => {
    const values = await llm.extract({
      variables: {},
      keys: [key('interested', 'boolean', 'is the callee interested')],
      transcript: [t('user', 'No, I am not interested.')],
    });
    expect(values).toEqual({ interested: false });
  });
});
