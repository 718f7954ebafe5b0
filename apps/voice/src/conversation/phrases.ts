// What the platform itself says on a call (as opposed to the agent's model and the partner's messages).

export const Phrases = {
  endCallDefault: 'Thank you for calling. Goodbye!',
  transferDefault: 'Please hold while I transfer your call.',
  transferFailed: "I'm sorry, I couldn't transfer your call right now. How else can I help?",
  idleReprompt: 'Are you still there?',
  idleGoodbye: "I haven't heard from you, so I'll end the call now. Goodbye!",
  wrapUp: "We're almost out of time for this call, so let's start wrapping up.",
  maxDurationFarewell: "We've reached the time limit for this call. Thank you, goodbye!",
  apology: "I'm sorry, I'm having technical difficulties right now. Please call back later. Goodbye.",
  endFarewell: "I'm sorry, I have to end the call now. Goodbye.",
  optOutFarewell: "Understood. We won't call you again. Goodbye.",
  optOutFailed:
    "I'm sorry, I couldn't take your number off our list just now. Please tell us again. Goodbye.",
} as const;
