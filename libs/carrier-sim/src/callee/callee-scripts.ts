import { answeringMachineBeep } from './callee-voice';
import { CalleeOutcome } from './outcomes';
import { CalleeLines } from './callee-lines';
import { CalleeScript, PhoneLine } from '../phone/simulated-phone';

/** Media time the callee waits for the agent to open the call before speaking anyway (no intro message). */
export const INTRO_WAIT_MS = 6_000;
/** Media time the callee waits for the agent's answer to one of its lines before going on. */
export const REPLY_WAIT_MS = 15_000;
/** After its last line the callee stays on the line this long for the platform to hang up, then hangs up. */
export const LINGER_MS = 15_000;
/** Media time the callee keeps a call on hold (the carrier's hold events report it, in whole seconds). */
export const SANDBOX_HOLD_SECONDS = 20;
/** Media time a caller being transferred waits on hold for the transfer (or the agent's word) before giving up. */
export const TRANSFER_HOLD_MS = 300_000;
/** After a first turn that is no answer to the caller's question, how long the caller waits for the answer. */
const LATE_REPLY_MS = 5_000;
/** Media time a warm transfer's human waits for the agent's briefing. */
export const BRIEFING_WAIT_MS = 30_000;
/** How long an answering machine records before it hangs up. */
export const MACHINE_RECORD_MS = 30_000;
/** The long talker cuts in once the agent has talked this long (barge-in). */
export const BARGE_IN_AFTER_MS = 600;
/** The long talker's breath between two of its lines, when the agent does not start talking. */
const MONOLOGUE_BREATH_MS = 1_200;

/** What a script needs from the carrier besides the line: the hold events. */
export interface ScriptPorts {
  hold(phase: 'start' | 'end', durationSecs: number | null): Promise<void>;
}

/** The callee's side of the call for each answered outcome (see sandbox-outcomes.ts). */
export function calleeScript(outcome: CalleeOutcome, ports: ScriptPorts): CalleeScript {
  switch (outcome) {
    case 'voicemail':
      return answeringMachine;
    case 'hangup_no_speech':
      return hangsUpWithoutSpeaking;
    case 'hold':
      return (line) => putsOnHold(line, ports);
    case 'long_talker':
      return longTalker;
    case 'asks_for_human':
      return asksForHuman;
    case 'phone_menu':
      return phoneMenu;
    case 'keypad_entry':
      return keypadEntry;
    case 'calls_function':
      return callsFunction;
    case 'accepts_transfer':
      return (line) => answersBriefing(line, CalleeLines.transferYes);
    case 'declines_transfer':
      return (line) => answersBriefing(line, CalleeLines.transferNo);
    default:
      return shortConversation;
  }
}

/** Each line waits for the agent's answer; the callee then waits for the platform to end the call. */
async function exchange(line: PhoneLine, lines: readonly string[]): Promise<void> {
  for (const text of lines) {
    await line.say(text);
    await line.listen(REPLY_WAIT_MS);
  }
}

async function stayOnLine(line: PhoneLine): Promise<void> {
  await line.pause(LINGER_MS);
  line.hangUp();
}

async function shortConversation(line: PhoneLine): Promise<void> {
  await line.listen(INTRO_WAIT_MS);
  await exchange(line, [CalleeLines.greeting, CalleeLines.goodbye]);
  await stayOnLine(line);
}

/** A machine does not listen: greeting and beep at once, then it records until the platform hangs up. */
async function answeringMachine(line: PhoneLine): Promise<void> {
  await line.say(CalleeLines.machineGreeting);
  await line.play(answeringMachineBeep());
  await line.pause(MACHINE_RECORD_MS);
  line.hangUp();
}

async function hangsUpWithoutSpeaking(line: PhoneLine): Promise<void> {
  await line.listen(INTRO_WAIT_MS);
  await line.pause(500);
  line.hangUp();
}

async function putsOnHold(line: PhoneLine, ports: ScriptPorts): Promise<void> {
  await line.listen(INTRO_WAIT_MS);
  await line.say(CalleeLines.holdRequest);
  await ports.hold('start', null);
  await line.pause(SANDBOX_HOLD_SECONDS * 1000);
  await ports.hold('end', SANDBOX_HOLD_SECONDS);
  await exchange(line, [CalleeLines.backFromHold, CalleeLines.shortGoodbye]);
  await stayOnLine(line);
}

/**
 * Talks over the agent from its intro on and keeps talking, cutting in whenever the agent starts to
 * answer (barge-in), until the platform ends the call (max_call_duration_secs).
 */
async function longTalker(line: PhoneLine): Promise<void> {
  await line.agentTalking(BARGE_IN_AFTER_MS, INTRO_WAIT_MS);
  for (let i = 0; ; i++) {
    await line.say(CalleeLines.monologue[i % CalleeLines.monologue.length]);
    await line.agentTalking(BARGE_IN_AFTER_MS, MONOLOGUE_BREATH_MS);
  }
}

/** Asks for a human; when the agent says it is transferring, waits for the transfer, else gives up. */
async function asksForHuman(line: PhoneLine): Promise<void> {
  await line.listen(INTRO_WAIT_MS);
  await line.say(CalleeLines.askForHuman);
  let answer = await line.listen(REPLY_WAIT_MS);
  // An intro that played late (a cold replica) is the first turn heard after the question: the answer follows it.
  if (answer && !/transfer/i.test(answer.lines.join(' ')))
    answer = (await line.listen(LATE_REPLY_MS)) ?? answer;
  const said = answer?.lines.join(' ') ?? '';
  if (/transfer/i.test(said) && !/\b(cannot|can't|unable|not able)\b/i.test(said)) {
    // The carrier moves the call to the human and this phone's stream ends with the transfer; a warm transfer
    // holds the caller first, and the agent comes back when the human does not take the call.
    const back = await line.listen(TRANSFER_HOLD_MS);
    if (back) await exchange(line, [CalleeLines.neverMind]);
    await stayOnLine(line);
    return;
  }
  await exchange(line, [CalleeLines.neverMind]);
  await stayOnLine(line);
}

/**
 * Media time a caller who asked for something keeps listening after each of the agent's turns, so that holding
 * lines ("let me look that up") followed by a wait for a partner's answer do not read as the agent being done.
 * Shorter than an agent's idle reprompt (8 s), which a caller who is still waiting would not let come.
 */
export const ANSWER_WAIT_MS = 5_000;

/** The account number the keypad caller keys in, ended with #. */
export const KEYPAD_ENTRY = '4711#';

/**
 * An automated phone menu: reads its options once the agent has had its say, waits for a key (touch tones in the
 * agent's audio), names the option it chose and hangs up, as a menu transferring the call would.
 */
async function phoneMenu(line: PhoneLine): Promise<void> {
  await line.listen(INTRO_WAIT_MS);
  await line.say(CalleeLines.menu);
  const key = await line.nextKey(REPLY_WAIT_MS);
  const choice = key === null ? undefined : CalleeLines.menuChoice[Number(key) - 1];
  await line.say(choice ?? CalleeLines.menuNoChoice);
  await line.pause(1000);
  line.hangUp();
}

/** Keys in an account number once the agent has had its say, listens to the answer, says goodbye. */
async function keypadEntry(line: PhoneLine): Promise<void> {
  await line.listen(INTRO_WAIT_MS);
  await line.press(KEYPAD_ENTRY);
  await line.listen(REPLY_WAIT_MS);
  await exchange(line, [CalleeLines.shortGoodbye]);
}

/** Asks for something a partner function answers (check_order), listens to the answer, says goodbye. */
/** Asks for something a partner function answers, waits through the agent's holding lines for it, then leaves. */
async function callsFunction(line: PhoneLine): Promise<void> {
  await line.listen(INTRO_WAIT_MS);
  await line.say(CalleeLines.callsFunction);
  if (await line.listen(REPLY_WAIT_MS)) {
    while (await line.listen(ANSWER_WAIT_MS));
  }
  await exchange(line, [CalleeLines.goodbye]);
  await stayOnLine(line);
}

/**
 * A warm transfer's human: hears the agent's briefing and its question, answers it, and stays on the line (the
 * carrier moves the leg into the caller's conference, or the platform hangs it up).
 */
async function answersBriefing(line: PhoneLine, answer: string): Promise<void> {
  await line.listen(BRIEFING_WAIT_MS);
  await line.say(answer);
  await stayOnLine(line);
}
