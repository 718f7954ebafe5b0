/** Splits after sentence-ending punctuation (Latin and Devanagari danda) followed by whitespace. */
export function splitSentences(text: string): string[] {
  return text
    .split(/(?<=[.!?\u0964\u0965])\s+/)
    .map((s) => s.trim())
    .filter(Boolean);
}

/** The last `budget` characters of `text`, starting at a word boundary ('' when none fits). */
export function wordTail(text: string, budget: number): string {
  if (budget <= 0) return '';
  if (text.length <= budget) return text;
  const tail = text.slice(text.length - budget);
  const space = tail.search(/\s/);
  return space >= 0 ? tail.slice(space + 1).trimStart() : '';
}

/** The first `budget` characters of `text`, ending at a word boundary (hard cut for one giant word). */
export function wordHead(text: string, budget: number): string {
  if (text.length <= budget) return text;
  const head = text.slice(0, budget + 1);
  const space = head.lastIndexOf(' ');
  return (space > 0 ? head.slice(0, space) : text.slice(0, budget)).trimEnd();
}
