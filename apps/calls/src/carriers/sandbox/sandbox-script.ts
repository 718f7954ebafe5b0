/** What the simulated callee says, per outcome. Fixed lines keep sandbox calls reproducible. */
export const CalleeLines = {
  greeting: 'Hello? Yes, speaking. This is a good time.',
  question: 'Can you tell me about your plans and pricing?',
  goodbye: 'Great, that is helpful. Thank you, bye.',
  holdRequest: 'Hello? Oh, one moment please, let me put you on hold.',
  backFromHold: 'Sorry about that, I am back. What is this about?',
  shortGoodbye: 'Alright, thanks. Bye.',
  askForHuman: 'Hi. Can I speak to a human, please? I would like to talk to a real person.',
  neverMind: 'Okay, never mind then. Bye.',
  monologue: [
    'Well, let me tell you, I have been meaning to sort this out for quite a while now.',
    'Last month we tried something similar and it did not really work out the way we hoped.',
    'My colleague thinks we should wait until next quarter, but I am not so sure about that.',
    'There are a lot of details I still want to go through with you before deciding anything.',
  ],
} as const;

export const AgentLines = {
  defaultFarewell: 'Thank you for your time. Goodbye!',
  defaultTransfer: 'Sure, I am transferring you to a member of our team now.',
  cannotTransfer: 'I am sorry, I cannot transfer this call, but I am happy to help you myself.',
  wrapUpWarning: 'Just so you know, we will need to wrap up this call in about thirty seconds.',
  maxDurationFarewell: 'We have reached the time limit for this call. Thank you, goodbye!',
} as const;

/** Simulated seconds a line takes to say: about 2.5 words a second plus a short pause. */
export function speakingSeconds(text: string): number {
  const words = text.split(/\s+/).filter(Boolean).length;
  return Math.round((words / 2.5 + 0.6) * 10) / 10;
}

/** Replaces {{name}} with the call's pre-call variables (unknown names stay as written). */
export function withVariables(text: string, variables: Record<string, unknown>): string {
  return text.replace(/\{\{\s*([A-Za-z0-9_]+)\s*\}\}/g, (whole, name: string) =>
    Object.prototype.hasOwnProperty.call(variables, name) ? String(variables[name]) : whole,
  );
}
