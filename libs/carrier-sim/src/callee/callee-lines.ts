/**
 * What the simulated callee says, per outcome. Fixed lines keep sandbox calls reproducible; short ones
 * keep a default call well inside its 20 s of wall time.
 */
export const CalleeLines = {
  /** The default callee answers the intro and asks at once: one exchange, then goodbye. */
  greeting: 'Yes, this is a good time. What plans and pricing do you offer?',
  goodbye: 'Great, thanks. Bye.',
  holdRequest: 'Hello? One moment please, let me put you on hold.',
  backFromHold: 'Sorry about that, I am back. What is this about?',
  shortGoodbye: 'Alright, thanks. Bye.',
  askForHuman: 'Hi. Can I speak to a human, please?',
  neverMind: 'Okay, never mind then. Bye.',
  /** A warm transfer's human, once briefed: takes the caller, or does not. */
  transferYes: 'Yes, please put them through.',
  transferNo: "No, sorry, I can't take it right now.",
  /** The phone menu: its options, then what it says once a key chose one (or none did). */
  menu: 'Welcome to Acme. Press 1 for billing. Press 2 for sales. Press 3 for support.',
  menuChoice: ['You chose billing. Goodbye.', 'You chose sales. Goodbye.', 'You chose support. Goodbye.'],
  menuNoChoice: 'No option was chosen. Goodbye.',
  /**
   * Names a partner function the way the offline engine calls one (docs/voice.md): an agent with a function
   * named check_order calls it with order_number 42.
   */
  callsFunction: 'Please check order, order number is 42.',
  monologue: [
    'Well, let me tell you, I have been meaning to sort this out for quite a while now.',
    'Last month we tried something similar and it did not really work out the way we hoped.',
    'My colleague thinks we should wait until next quarter, but I am not so sure about that.',
    'There are a lot of details I still want to go through with you before deciding anything.',
  ],
  machineGreeting:
    'Hi, you have reached the voicemail of this number. Please leave a message after the tone.',
} as const;

/** Every line a simulated callee can say, once each. */
export const ALL_CALLEE_LINES: readonly string[] = Object.values(CalleeLines).flat();
