// The LLM streams text in small deltas; the agent starts speaking as soon as the first sentence is complete
// instead of waiting for the whole reply (the largest single cut in voice-to-voice latency).

/** A clause this long with no sentence end is spoken at its last comma or space, so TTS never waits long. */
const MAX_SENTENCE_CHARS = 220;

// A sentence ends at . ! ? (or a run of them, optionally closed by a quote or bracket) followed by
// whitespace, or at a line break. "3.5" and "e.g.x" do not end sentences (no whitespace after the dot).
const SENTENCE_END = /[.!?…]+["')\]]*\s+|\n+/g;

/** Speech has no use for markdown: emphasis, headings, bullets and code ticks would be read aloud. */
export function speakableText(text: string): string {
  return text
    .replace(/[*_`#>]+/g, '')
    .replace(/^\s*[-•]\s+/gm, '')
    .replace(/\s+/g, ' ')
    .trim();
}

/** Splits streamed text into speakable sentences as they complete. */
export class SentenceSplitter {
  private buffer = '';

  /** Adds a delta; returns the sentences it completed (possibly none). */
  push(delta: string): string[] {
    this.buffer += delta;
    const sentences: string[] = [];
    let start = 0;
    SENTENCE_END.lastIndex = 0;
    for (let match = SENTENCE_END.exec(this.buffer); match; match = SENTENCE_END.exec(this.buffer)) {
      const end = match.index + match[0].length;
      this.take(this.buffer.slice(start, end), sentences);
      start = end;
    }
    this.buffer = this.buffer.slice(start);
    if (this.buffer.length > MAX_SENTENCE_CHARS) {
      const cut = Math.max(this.buffer.lastIndexOf(', '), this.buffer.lastIndexOf(' '));
      if (cut > 0) {
        this.take(this.buffer.slice(0, cut + 1), sentences);
        this.buffer = this.buffer.slice(cut + 1);
      }
    }
    return sentences;
  }

  /** The stream ended: whatever is left is the last sentence. */
  flush(): string[] {
    const sentences: string[] = [];
    this.take(this.buffer, sentences);
    this.buffer = '';
    return sentences;
  }

  private take(raw: string, into: string[]): void {
    const text = speakableText(raw);
    if (/[\p{L}\p{N}]/u.test(text)) into.push(text);
  }
}
