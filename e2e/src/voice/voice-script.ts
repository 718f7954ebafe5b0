// What the fake language model answers in the voice specs: one script, shared with the voice service's
// integration specs.
export { EARLY_ANSWER, KB_FACT, LONG_REPLY, voiceScript } from '@vap/llm/testing';
