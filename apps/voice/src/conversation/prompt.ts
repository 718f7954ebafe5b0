// The agent's system prompt for a live call: the partner's prompt with the call's pre-call variables filled in,
// plus the sections the offered tools and the spoken languages need.

import {
  END_CALL_TOOL,
  offersBuiltinTool,
  SEARCH_KNOWLEDGE_TOOL,
  TRANSFER_CALL_TOOL,
  type AgentSnapshot,
  type SpokenLanguage,
} from '@vap/messages';

const LANGUAGE_NAMES: Record<SpokenLanguage, string> = {
  en: 'English',
  hinglish: 'Hinglish (Hindi and English mixed, as spoken in India)',
  hi: 'Hindi',
  mr: 'Marathi',
  te: 'Telugu',
  ta: 'Tamil',
  kn: 'Kannada',
  ml: 'Malayalam',
  gu: 'Gujarati',
  pa: 'Punjabi',
  bn: 'Bengali',
};

/**
 * Replaces {{name}} (spaces inside the braces allowed) with the variable's value. Unknown names are left as
 * written so a partner sees what was missing in the transcript rather than a silent gap.
 */
export function substituteVariables(text: string, variables: Record<string, unknown>): string {
  return text.replace(/\{\{\s*([\w.-]+)\s*\}\}/g, (whole, name: string) => {
    const value = variables[name];
    if (value === undefined || value === null) return whole;
    return typeof value === 'object' ? JSON.stringify(value) : String(value);
  });
}

/** The language line: which languages the caller may use and how the agent answers. */
export function languageInstruction(languages: readonly SpokenLanguage[]): string {
  const names = (languages.length ? languages : (['en'] as const)).map((code) => LANGUAGE_NAMES[code]);
  if (names.length === 1) return `Speak ${names[0]} throughout the call.`;
  return `The caller may speak ${names.join(' or ')}. Answer in the language the caller last used.`;
}

/** The system message for the call. */
export function buildSystemPrompt(agent: AgentSnapshot, variables: Record<string, unknown>): string {
  const sections = [substituteVariables(agent.prompt, variables).trim()];
  sections.push(
    '## Speaking on the phone\nYou are talking to the caller on a phone call. Reply in short spoken sentences, ' +
      'with no markdown, lists or emoji. ' +
      languageInstruction(agent.spokenLanguages),
  );
  if (offersBuiltinTool(agent, END_CALL_TOOL)) {
    const when = agent.endCallInstructions
      ? substituteVariables(agent.endCallInstructions, variables)
      : 'Call it when the conversation is complete or the caller asks to end the call.';
    sections.push(`## Ending the call\nUse the end_call tool to hang up. ${when}`);
  }
  if (offersBuiltinTool(agent, TRANSFER_CALL_TOOL)) {
    const when = agent.transferInstructions
      ? substituteVariables(agent.transferInstructions, variables)
      : 'Call it when the caller asks for a person or you cannot help.';
    sections.push(`## Transferring the call\nUse the transfer_call tool to transfer the caller. ${when}`);
  }
  if (offersBuiltinTool(agent, SEARCH_KNOWLEDGE_TOOL)) {
    sections.push(
      '## Knowledge base\nUse the search_knowledge_base tool for facts you are not sure of, and answer from ' +
        'what it returns.',
    );
  }
  sections.push(
    '## Do not call again\nIf the person asks not to be called again (or to be taken off the list), use the ' +
      'opt_out tool at once; do not try to change their mind.',
  );
  return sections.filter((s) => s.length > 0).join('\n\n');
}
