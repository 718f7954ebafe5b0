// What the turn-taking benchmark's scripted callers say: finished questions, sentences with a pause in the middle
// (the first half ending on a word a sentence does not end on), acknowledgements while the agent speaks, and
// bursts of noise. Each line is a numbered piece; the caller's audio carries the piece's number (audio-code.ts),
// so the fake STT answers, from the audio alone, the words of the pieces it heard, in order.
import { FRAME_MS, seededRandom } from '@vap/media';

export type PieceRole = 'question' | 'first-half' | 'rest' | 'backchannel';

export interface Piece {
  id: number;
  text: string;
  role: PieceRole;
}

/** Finished questions: the endpoint should come after the shortest silence. */
const QUESTIONS = [
  'What time do you open?',
  'Do you deliver on Sundays?',
  'Can I pay by card?',
  'Where is my order now?',
  'How much is the delivery fee?',
  'Is the shop open today?',
  'Can I change my booking?',
  'Do you have any tables free tonight?',
];

/** Sentences said in two parts: the first ends on a word no sentence ends on, the whole is finished. */
const SPLIT_SENTENCES: readonly [string, string][] = [
  ['I want to book a table for', 'four people tonight.'],
  ['Can you check the order I placed on', 'Monday morning?'],
  ['I would like to change my address to', 'the new flat downtown.'],
  ['My booking reference is', 'seven four two nine.'],
  ['Could you tell me the price of the', 'large family pizza?'],
  ['I need to cancel my appointment and', 'book a new one.'],
  ['Please send the invoice to', 'my work email.'],
  ['We are looking for a room with', 'a sea view.'],
];

/** Acknowledgements said over the agent: they must neither stop it nor be answered. */
const BACKCHANNELS = ['Yeah.', 'Okay.', 'Mm-hmm.'];

/** Every piece, its id its index. */
export const PIECES: readonly Piece[] = [
  ...QUESTIONS.map((text) => ({ text, role: 'question' as const })),
  ...SPLIT_SENTENCES.map(([text]) => ({ text, role: 'first-half' as const })),
  ...SPLIT_SENTENCES.map(([, text]) => ({ text, role: 'rest' as const })),
  ...BACKCHANNELS.map((text) => ({ text, role: 'backchannel' as const })),
].map((piece, id) => ({ ...piece, id }));

const QUESTION_IDS = PIECES.filter((p) => p.role === 'question').map((p) => p.id);
const FIRST_HALF_IDS = PIECES.filter((p) => p.role === 'first-half').map((p) => p.id);
const REST_IDS = PIECES.filter((p) => p.role === 'rest').map((p) => p.id);
const BACKCHANNEL_IDS = PIECES.filter((p) => p.role === 'backchannel').map((p) => p.id);

/** What an STT provider would answer for audio holding these pieces, in the order heard. */
export function transcriptOfPieces(pieceIds: readonly number[]): string {
  return pieceIds
    .map((id) => PIECES[id]?.text)
    .filter((text): text is string => text !== undefined)
    .join(' ');
}

/** Spelling- and punctuation-blind form of a line, to compare what the platform passed on with a script. */
export function normaliseWords(text: string): string {
  return text
    .toLowerCase()
    .replace(/[^\p{L}\p{N}'\- ]+/gu, ' ')
    .split(/\s+/)
    .filter(Boolean)
    .join(' ');
}

/** What a line the caller's turn ended with was: a question, a split sentence whole or one of its parts. */
export type CallerLineKind = 'complete' | 'incomplete' | 'first-half' | 'rest' | 'backchannel';

const LINE_KINDS = new Map<string, CallerLineKind>([
  ...PIECES.map(
    (p) =>
      [
        normaliseWords(p.text),
        p.role === 'question' ? 'complete' : p.role === 'backchannel' ? 'backchannel' : p.role,
      ] as [string, CallerLineKind],
  ),
  ...SPLIT_SENTENCES.map(
    ([first, rest]) => [normaliseWords(`${first} ${rest}`), 'incomplete'] as [string, CallerLineKind],
  ),
]);

/** The kind of a transcript line, or undefined when it is none of the script's. */
export function callerLineKind(text: string): CallerLineKind | undefined {
  return LINE_KINDS.get(normaliseWords(text));
}

/** What the caller does while the agent answers. */
export type OverlapKind = 'backchannel' | 'noise';

export interface PlannedSpeech {
  piece: number;
  frames: number;
}

export interface PlannedTurn {
  kind: 'complete' | 'incomplete';
  /** One piece (complete) or the two halves of a split sentence (incomplete), each this many 20 ms frames long. */
  parts: PlannedSpeech[];
  /** Silence between the halves, frames (0 for a complete utterance). */
  pauseFrames: number;
  /** Sound over the agent's answer, once it has been heard for OVERLAP_AFTER_MS. */
  overlap: { kind: 'backchannel'; piece: number; frames: number } | { kind: 'noise'; frames: number } | null;
}

/** Agent speech heard before the caller's acknowledgement or noise starts. */
export const OVERLAP_AFTER_MS = 800;
/** Mid-sentence pauses, ms (inclusive bounds). */
export const PAUSE_MS = { min: 300, max: 900 } as const;
const COMPLETE_MS = { min: 900, max: 1200 };
const FIRST_HALF_MS = { min: 800, max: 1100 };
const REST_MS = { min: 500, max: 800 };
const BACKCHANNEL_MS = { min: 300, max: 400 };
const NOISE_MS = { min: 1000, max: 1500 };

/** The four combinations a call cycles through: each utterance kind with each sound over the answer. */
const CYCLE: readonly { kind: PlannedTurn['kind']; overlap: OverlapKind }[] = [
  { kind: 'complete', overlap: 'backchannel' },
  { kind: 'incomplete', overlap: 'noise' },
  { kind: 'complete', overlap: 'noise' },
  { kind: 'incomplete', overlap: 'backchannel' },
];

/**
 * The turns of call `callIndex`: the cycle of four, started at a different place per call so the calls of a
 * round do different things at any moment; lengths and pauses drawn per call (deterministic for the index). No
 * call says the same split sentence twice in its first eight incomplete turns, so a line the model was asked
 * about names its turn.
 */
export function planCall(callIndex: number, turns: number): PlannedTurn[] {
  const random = seededRandom(0x7a11 + callIndex * 7919);
  const frames = (range: { min: number; max: number }) =>
    Math.round((range.min + random() * (range.max - range.min)) / FRAME_MS);
  const plan: PlannedTurn[] = [];
  let questions = 0;
  let splits = 0;
  let backchannels = 0;
  for (let t = 0; t < turns; t++) {
    const { kind, overlap } = CYCLE[(callIndex + t) % CYCLE.length];
    let parts: PlannedSpeech[];
    let pauseFrames = 0;
    if (kind === 'complete') {
      const piece = QUESTION_IDS[(callIndex + questions++) % QUESTION_IDS.length];
      parts = [{ piece, frames: frames(COMPLETE_MS) }];
    } else {
      const pair = (callIndex * 3 + splits++) % FIRST_HALF_IDS.length;
      parts = [
        { piece: FIRST_HALF_IDS[pair], frames: frames(FIRST_HALF_MS) },
        { piece: REST_IDS[pair], frames: frames(REST_MS) },
      ];
      pauseFrames = frames(PAUSE_MS);
    }
    plan.push({
      kind,
      parts,
      pauseFrames,
      overlap:
        overlap === 'backchannel'
          ? {
              kind: 'backchannel',
              piece: BACKCHANNEL_IDS[(callIndex + backchannels++) % BACKCHANNEL_IDS.length],
              frames: frames(BACKCHANNEL_MS),
            }
          : { kind: 'noise', frames: frames(NOISE_MS) },
    });
  }
  return plan;
}
