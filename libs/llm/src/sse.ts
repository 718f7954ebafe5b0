/**
 * The `data` of each server-sent event in a byte stream (https://html.spec.whatwg.org/#event-stream-interpretation):
 * lines split on CRLF, LF or CR, `data:` fields of one event joined by LF, events ended by a blank line,
 * comments and other fields ignored. UTF-8 is decoded across chunk boundaries.
 */
export async function* serverSentEventData(
  body: AsyncIterable<Uint8Array | string>,
): AsyncGenerator<string, void, undefined> {
  const decoder = new TextDecoder();
  let buffered = '';
  let data: string[] = [];
  // A CR at the end of a chunk may be the first half of a CRLF split across chunks.
  let skipLeadingLf = false;

  const takeLine = (line: string): string | null => {
    if (line === '') {
      const event = data.length ? data.join('\n') : null;
      data = [];
      return event;
    }
    if (line.startsWith(':')) return null;
    const colon = line.indexOf(':');
    const field = colon === -1 ? line : line.slice(0, colon);
    if (field !== 'data') return null;
    let value = colon === -1 ? '' : line.slice(colon + 1);
    if (value.startsWith(' ')) value = value.slice(1);
    data.push(value);
    return null;
  };

  for await (const chunk of body) {
    buffered += typeof chunk === 'string' ? chunk : decoder.decode(chunk, { stream: true });
    if (skipLeadingLf && buffered.startsWith('\n')) buffered = buffered.slice(1);
    skipLeadingLf = false;
    let start = 0;
    for (let i = 0; i < buffered.length; i++) {
      const c = buffered[i];
      if (c !== '\n' && c !== '\r') continue;
      const event = takeLine(buffered.slice(start, i));
      if (c === '\r') {
        if (i + 1 < buffered.length) {
          if (buffered[i + 1] === '\n') i++;
        } else {
          skipLeadingLf = true;
        }
      }
      start = i + 1;
      if (event !== null) yield event;
    }
    buffered = buffered.slice(start);
  }
  buffered += decoder.decode();
  // A stream that ends without the final blank line still delivers its last event.
  if (buffered) takeLine(buffered);
  const last = takeLine('');
  if (last !== null) yield last;
}
