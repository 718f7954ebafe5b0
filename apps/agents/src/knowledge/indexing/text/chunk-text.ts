import { splitSentences, wordHead, wordTail } from './sentences';

/**
 * Chunking of the knowledge base: about 800 characters per chunk, and each chunk repeats up to the last
 * 150 characters of the one before (whole sentences where they fit), so that a fact cut by a chunk border
 * is still found whole in one chunk. Borders fall between paragraphs, else between sentences, else between
 * words; only a single word longer than a chunk is cut inside.
 */
export const DEFAULT_CHUNKING = { size: 800, overlap: 150 } as const;

export interface ChunkingOptions {
  size: number;
  overlap: number;
}

interface Unit {
  text: string;
  /** Starts a paragraph: joined with a blank line instead of a space. */
  paragraph: boolean;
}

function piecesOf(sentence: string, size: number): string[] {
  const pieces: string[] = [];
  let rest = sentence;
  while (rest.length > size) {
    const head = wordHead(rest, size);
    pieces.push(head);
    rest = rest.slice(head.length).trimStart();
  }
  if (rest) pieces.push(rest);
  return pieces;
}

function unitsOf(text: string, size: number): Unit[] {
  const units: Unit[] = [];
  for (const paragraph of text.split(/\n{2,}/)) {
    const flat = paragraph.replace(/\s+/g, ' ').trim();
    if (!flat) continue;
    const parts = flat.length <= size ? [flat] : splitSentences(flat).flatMap((s) => piecesOf(s, size));
    parts.forEach((part, i) => units.push({ text: part, paragraph: i === 0 }));
  }
  return units;
}

function render(units: Unit[]): string {
  return units.map((u, i) => (i === 0 ? u.text : `${u.paragraph ? '\n\n' : ' '}${u.text}`)).join('');
}

/** The end of a chunk to repeat at the start of the next: whole units if they fit, else a word tail. */
function overlapOf(units: Unit[], budget: number): Unit[] {
  const kept: Unit[] = [];
  let used = 0;
  for (let i = units.length - 1; i >= 0; i--) {
    const cost = units[i].text.length + (kept.length ? 1 : 0);
    if (used + cost > budget) break;
    kept.unshift(units[i]);
    used += cost;
  }
  if (kept.length) return kept;
  const last = units[units.length - 1];
  const tail = last ? wordTail(last.text, budget) : '';
  return tail ? [{ text: tail, paragraph: false }] : [];
}

export function chunkText(text: string, options: ChunkingOptions = DEFAULT_CHUNKING): string[] {
  const { size, overlap } = options;
  if (overlap >= size) throw new RangeError('overlap must be smaller than the chunk size');
  const chunks: string[] = [];
  let current: Unit[] = [];
  for (const unit of unitsOf(text, size)) {
    if (current.length && render([...current, unit]).length > size) {
      chunks.push(render(current));
      // Units are at most `size` long, so the carried overlap is trimmed to leave room for this one.
      current = overlapOf(current, Math.min(overlap, size - unit.text.length - 2));
    }
    current.push(unit);
  }
  if (current.length) chunks.push(render(current));
  return chunks;
}
