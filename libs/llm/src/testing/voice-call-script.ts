// What the scripted language model answers in the voice specs (the voice service's integration specs and the e2e):
// rules on the caller's last words and on the tools the platform offered, so each spec's conversation is
// deterministic and the platform's tool handling is what is tested (a tool is only called when the platform
// offered it).
import { ChatCompletionRequest, ChatScript, lastUserText, ScriptedTurn } from './scripted-chat-model';

/** A long reply in sentences, for barge-in and hang-up-mid-sentence tests. */
export const LONG_REPLY = [
  'We have three plans for homes and small offices.',
  'The first plan covers one device with basic support during office hours and costs very little each month.',
  'The second plan covers five devices with priority support every day of the week including public holidays.',
  'The third plan covers unlimited devices with a dedicated account manager and same day visits.',
];

/** What the model answers to exactly "Book a table." (the turn-taking spec's early reply, never to be heard). */
export const EARLY_ANSWER = 'Which day would you like?';

export const KB_FACT = 'The Basic plan costs 499 rupees per month.';

const offered = (request: ChatCompletionRequest, name: string) =>
  request.tools.some((t) => t.function?.name === name);

export const voiceScript: ChatScript = (request): ScriptedTurn => {
  const last = request.messages[request.messages.length - 1];
  if (last?.role === 'tool') {
    const fact = /[^.]*499 rupees[^.]*\./.exec(last.content ?? '')?.[0]?.trim();
    return { text: fact ?? 'I could not find that.' };
  }
  const said = lastUserText(request);
  if (/\b(bye|goodbye)\b/i.test(said) && offered(request, 'end_call')) {
    return { toolCalls: [{ name: 'end_call', arguments: { reason: 'the caller said goodbye' } }] };
  }
  if (/\b(do not|don't) call me\b/i.test(said) && offered(request, 'opt_out')) {
    return { toolCalls: [{ name: 'opt_out', arguments: {} }] };
  }
  if (/\bhuman\b/i.test(said) && offered(request, 'transfer_call')) {
    return { toolCalls: [{ name: 'transfer_call', arguments: { reason: 'the caller asked for a human' } }] };
  }
  if (/basic plan/i.test(said) && offered(request, 'search_knowledge_base')) {
    return { toolCalls: [{ name: 'search_knowledge_base', arguments: { query: 'basic plan price' } }] };
  }
  if (/tell me everything/i.test(said)) return { text: LONG_REPLY.join(' ') };
  if (said === 'Book a table.') return { text: EARLY_ANSWER };
  return { text: `You said ${said.replace(/[.?!]+$/, '')}.` };
};
