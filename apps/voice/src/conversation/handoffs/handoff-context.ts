// What the next agent receives of the conversation at a handoff, as its destination says (context_mode): the
// conversation as it was said, its last turns, or a summary the current agent's model writes. Only what was said
// passes (the caller's and the agents' words): tool calls and their results were the previous agent's own.
// A summary is written in the handoff's own tool call (its `summary` argument), so it costs no model round of its
// own; only when the model left it out is it asked for in a round of its own.

import { HANDOFF_LAST_TURNS_DEFAULT, type HandoffSnapshot } from '@vap/messages';
import type { ChatMessage } from '@vap/llm';

/** What the summary is asked for (the model that wrote the conversation so far writes it). */
export const SUMMARY_INSTRUCTIONS =
  'Summarise this phone conversation for a colleague who takes the call over now: who the caller is, what they ' +
  'want, and what has been said or done. Two to four sentences, plain text.';

/** What the handoff tool's `summary` argument asks the model for (the same as a summary round's instructions). */
export { SUMMARY_ARGUMENT_DESCRIPTION } from '@vap/messages';

/** A summary written in the tool call is kept to this many characters (the model's argument is unbounded). */
export const SUMMARY_MAX_CHARS = 2000;

/** How the summary is put before the next agent. */
export const SUMMARY_PREFIX = 'A colleague handed this call to you. The conversation so far, in short: ';

/** The caller's and the agents' words, in order (the system prompt and tool traffic left out). */
export function saidSoFar(history: readonly ChatMessage[]): ChatMessage[] {
  return history.flatMap((m): ChatMessage[] => {
    if (m.role === 'user' && m.content) return [{ role: 'user', content: m.content }];
    if (m.role === 'assistant' && m.content) return [{ role: 'assistant', content: m.content }];
    return [];
  });
}

/**
 * The messages after the next agent's system prompt. In summary mode `written` is the summary the model wrote in
 * its handoff call; when it is empty `summarize` writes one, and when that fails the next agent gets the last
 * turns instead (the handoff is not held up by a summary).
 */
export async function handoffContext(
  history: readonly ChatMessage[],
  handoff: HandoffSnapshot,
  written: string,
  summarize: (messages: ChatMessage[]) => Promise<string>,
  onError: (error: unknown) => void,
): Promise<ChatMessage[]> {
  const said = saidSoFar(history);
  const lastTurns = (n: number) => said.slice(-n);
  switch (handoff.contextMode) {
    case 'full':
      return said;
    case 'last_turns':
      return lastTurns(handoff.lastTurns ?? HANDOFF_LAST_TURNS_DEFAULT);
    case 'summary': {
      const given = written.trim().slice(0, SUMMARY_MAX_CHARS);
      if (given) return [{ role: 'system', content: `${SUMMARY_PREFIX}${given}` }];
      const transcript = said
        .map((m) => `${m.role === 'user' ? 'Caller' : 'Agent'}: ${m.content}`)
        .join('\n');
      try {
        const summary = (
          await summarize([
            { role: 'system', content: SUMMARY_INSTRUCTIONS },
            { role: 'user', content: transcript },
          ])
        ).trim();
        if (summary) return [{ role: 'system', content: `${SUMMARY_PREFIX}${summary}` }];
        onError(new Error('the summary for the handoff came back empty'));
      } catch (error) {
        onError(error);
      }
      return lastTurns(HANDOFF_LAST_TURNS_DEFAULT);
    }
  }
}

/** The call variables that pass: all of them, or the ones the destination names. */
export function passedVariables(
  variables: Readonly<Record<string, unknown>>,
  names: readonly string[] | null,
): Record<string, unknown> {
  if (names === null) return { ...variables };
  return Object.fromEntries(names.filter((n) => n in variables).map((n) => [n, variables[n]]));
}
