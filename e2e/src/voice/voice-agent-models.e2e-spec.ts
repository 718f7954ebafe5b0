// An agent that chose its model answers carrier calls with it: the platform's Groq key (MODEL_GROQ_*) points at
// the fake OpenAI-compatible server, which records the key and the model it was asked for; the transcript names
// the provider and model that wrote each line. An agent that chose none stays on the deployment's default model.
import { FAKE_AI_MODELS } from '../../support/fake-media';
import { botLines, VoiceWorld } from './voice-fixtures';
import { voiceScript } from './voice-script';

const INTRO = 'Hello, this is Maya from Acme.';
const GROQ_MODEL = 'llama-3.1-8b-instant';

describe('the agent’s own model on a carrier call', () => {
  let world: VoiceWorld;

  beforeAll(async () => {
    world = await VoiceWorld.start({
      name: 'voice_agent_models',
      providers: { llm: true },
      platformModels: ['groq'],
    });
    world.ai.script(voiceScript);
  }, 180_000);

  afterAll(async () => {
    await world?.stop();
  });

  it('answers with the agent’s model on the platform’s key, its parameters sent, each line naming it', async () => {
    const agent = await world.agent({
      model: { provider: 'groq', model: GROQ_MODEL, temperature: 0.3, max_tokens: 200 },
    });
    expect(agent.model).toMatchObject({ provider: 'groq', model: GROQ_MODEL });
    const before = world.ai.chats.length;
    const call = await world.dial('carrier_b', agent.id);
    await call.media.waitForHeard(INTRO);
    await call.media.waitUntilAgentSilent();
    await call.media.say('I would like to know my order status.');
    await call.media.waitForHeard('You said I would like to know my order status.');
    await call.media.waitUntilAgentSilent();
    await world.complete(call, call.media.mediaMs / 1000);

    const asked = world.ai.chats.slice(before);
    expect(asked.length).toBeGreaterThan(0);
    expect(asked[0]).toMatchObject({
      model: GROQ_MODEL,
      authorization: `Bearer ${world.ai.apiKey}`,
      failed: false,
    });
    // The agent's parameters, as Groq's OpenAI-compatible API names them.
    expect(asked[0].body).toMatchObject({ temperature: 0.3, max_tokens: 200, stream: true });
    const transcript = await world.transcript(call.callId, (lines) =>
      botLines(lines).some((l) => l.content.startsWith('You said')),
    );
    const answer = botLines(transcript).find((l) => l.content.startsWith('You said'));
    expect(answer?.providers).toMatchObject({ llm: 'groq', llm_model: GROQ_MODEL });
    expect(botLines(transcript)[0].providers).toMatchObject({ llm: null, llm_model: null });
  });

  it('keeps an agent that chose no model on the deployment’s default model', async () => {
    const agent = await world.agent();
    const call = await world.dial('carrier_b', agent.id);
    await call.media.waitForHeard(INTRO);
    await call.media.waitUntilAgentSilent();
    await call.media.say('Where is my order?');
    await call.media.waitForHeard('You said Where is my order.');
    // The answer's line may reach the calls service after the hang-up: it is kept only if it started within
    // the call's duration, which must be the stream's (a fixed few seconds falls short when the reply is slow).
    await world.complete(call, call.media.mediaMs / 1000);
    const transcript = await world.transcript(call.callId, (lines) =>
      botLines(lines).some((l) => l.content.startsWith('You said')),
    );
    const answer = botLines(transcript).find((l) => l.content.startsWith('You said'));
    expect(answer?.providers).toMatchObject({ llm: 'platform', llm_model: FAKE_AI_MODELS.llm });
  });
});
