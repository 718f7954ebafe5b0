// What the caller's words so far say about the turn: finished or not (endpointing), a backchannel or a real
// interruption (barge-in during the agent's speech). Plain rules on the transcript, cheap enough to run on every
// interim result; they work on any STT provider's text (punctuated or not) and on the agent's languages.

/** How finished the caller's words are. */
export type Completeness = 'complete' | 'incomplete' | 'unknown';

/**
 * Words a sentence does not end on: conjunctions, fillers, articles, prepositions, possessives. A turn whose last
 * word is one of them is still being said ("I want to book a table for", "and um").
 */
const TRAILING_WORDS = new Set([
  // English
  'and',
  'or',
  'but',
  'so',
  'because',
  'cause',
  'if',
  'then',
  'than',
  'that',
  'which',
  'who',
  'when',
  'where',
  'while',
  'although',
  'though',
  'unless',
  'until',
  'um',
  'umm',
  'uh',
  'uhh',
  'er',
  'erm',
  'hmm',
  'like',
  'the',
  'a',
  'an',
  'to',
  'of',
  'for',
  'with',
  'at',
  'in',
  'on',
  'from',
  'by',
  'about',
  'into',
  'my',
  'your',
  'our',
  'their',
  'his',
  'her',
  'its',
  'is',
  'are',
  'was',
  'were',
  'am',
  'be',
  'i',
  "i'm",
  'we',
  'you',
  'it',
  'this',
  'these',
  'those',
  'very',
  'some',
  'any',
  'also',
  'plus',
  'maybe',
  'let',
  "let's",
  'just',
  'want',
  'need',
  'would',
  'could',
  'should',
  'can',
  'will',
  'please',
  // Hindi (romanised, as providers transcribe Hinglish)
  'aur',
  'ya',
  'lekin',
  'par',
  'magar',
  'kyunki',
  'ki',
  'ke',
  'ka',
  'ko',
  'se',
  'mein',
  'matlab',
  'toh',
  'jo',
  'agar',
  'phir',
  // Hindi (Devanagari)
  'और',
  'या',
  'लेकिन',
  'पर',
  'क्योंकि',
  'की',
  'के',
  'का',
  'को',
  'से',
  'में',
  'मतलब',
  'तो',
  'जो',
  'अगर',
]);

/** Acknowledgements that keep the agent talking: alone (or a few of them together) they are not a turn. */
const BACKCHANNEL_PHRASES = new Set([
  // English
  'yeah',
  'yea',
  'yes',
  'yep',
  'yup',
  'ok',
  'okay',
  'k',
  'mm',
  'mhm',
  'mm-hmm',
  'mmhmm',
  'mm hmm',
  'uh-huh',
  'uh huh',
  'uhhuh',
  'hmm',
  'right',
  'sure',
  'alright',
  'all right',
  'i see',
  'got it',
  'cool',
  'great',
  'nice',
  'true',
  'exactly',
  'indeed',
  'oh',
  'ah',
  'aha',
  'sounds good',
  'fine',
  'good',
  'perfect',
  // Hindi (romanised and Devanagari)
  'haan',
  'han',
  'haanji',
  'haan ji',
  'ji',
  'ji haan',
  'achha',
  'acha',
  'accha',
  'theek',
  'theek hai',
  'thik hai',
  'sahi',
  'hmm ji',
  'हाँ',
  'हां',
  'जी',
  'जी हाँ',
  'अच्छा',
  'ठीक',
  'ठीक है',
  'सही',
]);

/** Words that always take the floor, however short: the caller wants the agent to stop now. */
const STOP_WORDS = new Set([
  'wait',
  'stop',
  'hold',
  'hang',
  'sorry',
  'excuse',
  'pardon',
  'no',
  'nope',
  'but',
  'actually',
  'what',
  'ruko',
  'ruk',
  'nahi',
  'nahin',
  'रुको',
  'रुकिए',
  'नहीं',
]);

/** Longest backchannel, in words ("haan ji theek hai" is four). */
const MAX_BACKCHANNEL_WORDS = 4;

/** Lower-case words without punctuation (apostrophes and hyphens inside words kept). */
export function wordsOf(text: string): string[] {
  return text
    .toLowerCase()
    .replace(/[^\p{L}\p{M}\p{N}'\- ]+/gu, ' ')
    .split(/\s+/)
    .map((w) => w.replace(/^['-]+|['-]+$/g, ''))
    .filter(Boolean);
}

/** Whether the words are said the same, whatever the punctuation and casing (early replies keep or go on this). */
export function sameWords(a: string, b: string): boolean {
  const x = wordsOf(a);
  const y = wordsOf(b);
  return x.length === y.length && x.every((w, i) => w === y[i]);
}

/**
 * Finished or not. A sentence end (. ? ! ।) is complete unless a trailing word precedes it; a trailing word, a
 * trailing comma, dash or ellipsis, or a number (still being read out) is incomplete; other unpunctuated words
 * are unknown (providers that do not punctuate), and so is no text at all.
 */
export function completenessOf(text: string): Completeness {
  const trimmed = text.trim();
  if (!trimmed) return 'unknown';
  if (/(,|\.\.\.|…|-|–|—)$/.test(trimmed)) return 'incomplete';
  const words = wordsOf(trimmed);
  if (words.length === 0) return 'unknown';
  const last = words[words.length - 1];
  if (TRAILING_WORDS.has(last)) return 'incomplete';
  if (/\p{N}$/u.test(last)) return 'incomplete';
  if (/[.?!।؟]["')\]]?$/.test(trimmed)) return 'complete';
  return 'unknown';
}

/** Only acknowledgements ("yeah", "okay okay", "mm-hmm right"): not a turn while the agent speaks. */
export function isBackchannel(text: string): boolean {
  const words = wordsOf(text);
  if (words.length === 0 || words.length > MAX_BACKCHANNEL_WORDS) return false;
  if (/\?\s*$/.test(text.trim())) return false;
  // Greedy match of known phrases (longest first) over the words.
  let at = 0;
  while (at < words.length) {
    let matched = 0;
    for (let n = Math.min(3, words.length - at); n >= 1; n--) {
      if (BACKCHANNEL_PHRASES.has(words.slice(at, at + n).join(' '))) {
        matched = n;
        break;
      }
    }
    if (matched === 0) return false;
    at += matched;
  }
  return true;
}

/**
 * What the caller's words mean while the agent speaks: `none` (no words yet), `backchannel` (let the agent go
 * on), or `interrupt` (more words, a question, or a word that asks the agent to stop).
 */
export function bargeInOf(text: string): 'none' | 'backchannel' | 'interrupt' {
  const words = wordsOf(text);
  if (words.length === 0) return 'none';
  if (words.some((w) => STOP_WORDS.has(w))) return 'interrupt';
  return isBackchannel(text) ? 'backchannel' : 'interrupt';
}
