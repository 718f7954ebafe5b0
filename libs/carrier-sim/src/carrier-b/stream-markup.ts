// Reads the media stream a carrier is told to open out of the platform's answer markup, the way each carrier
// reads its own XML: carrier_b `<Connect><Stream url="..."><Parameter name value/></Stream></Connect>`,
// carrier_a `<Stream bidirectional="true" ...>URL</Stream>`.

export interface StreamInstruction {
  protocol: 'carrier_a' | 'carrier_b';
  /** The WebSocket URL exactly as written in the markup (XML entities decoded). */
  url: string;
  /** carrier_b's <Parameter> pairs (sent back in `start.customParameters`). */
  parameters: Record<string, string>;
  /** The <Stream> element's attributes. */
  attributes: Record<string, string>;
}

const ENTITIES: Record<string, string> = { amp: '&', lt: '<', gt: '>', quot: '"', apos: "'" };

export function unescapeXml(value: string): string {
  return value.replace(/&(#x[0-9a-f]+|#\d+|[a-z]+);/gi, (whole, name: string) => {
    if (name[0] === '#') {
      const code =
        name[1] === 'x' || name[1] === 'X' ? parseInt(name.slice(2), 16) : parseInt(name.slice(1), 10);
      return String.fromCodePoint(code);
    }
    return ENTITIES[name] ?? whole;
  });
}

function attributesOf(tag: string): Record<string, string> {
  const out: Record<string, string> = {};
  for (const m of tag.matchAll(/([A-Za-z_:][\w:.-]*)\s*=\s*("([^"]*)"|'([^']*)')/g)) {
    out[m[1]] = unescapeXml(m[3] ?? m[4] ?? '');
  }
  return out;
}

/** The stream an answer asks for, or null when the markup holds no bidirectional stream for that carrier. */
export function streamInstructionOf(
  protocol: 'carrier_a' | 'carrier_b',
  markup: string,
): StreamInstruction | null {
  if (protocol === 'carrier_b') {
    // Only <Connect><Stream> is bidirectional; <Start><Stream> would be a one-way fork.
    const connect = /<Connect\b[^>]*>([\s\S]*?)<\/Connect>/.exec(markup);
    if (!connect) return null;
    const stream = /<Stream\b([^>]*?)(\/>|>([\s\S]*?)<\/Stream>)/.exec(connect[1]);
    if (!stream) return null;
    const attributes = attributesOf(stream[1]);
    if (!attributes.url) return null;
    const parameters: Record<string, string> = {};
    for (const p of (stream[3] ?? '').matchAll(/<Parameter\b([^>]*?)\/?>/g)) {
      const { name, value } = attributesOf(p[1]);
      if (name) parameters[name] = value ?? '';
    }
    return { protocol, url: attributes.url, parameters, attributes };
  }
  const stream = /<Stream\b([^>]*)>([\s\S]*?)<\/Stream>/.exec(markup);
  if (!stream) return null;
  const attributes = attributesOf(stream[1]);
  const url = unescapeXml(stream[2].trim());
  if (!url) return null;
  return { protocol, url, parameters: {}, attributes };
}

/** The number a `<Dial>` markup dials (`<Dial>NUMBER</Dial>` or `<Dial><Number>NUMBER</Number></Dial>`). */
export function dialedNumber(markup: string): string | null {
  const dial = /<Dial\b[^>]*>([\s\S]*?)<\/Dial>/.exec(markup);
  if (!dial || conferenceRoom(dial[1])) return null;
  const inner = /<Number\b[^>]*>([\s\S]*?)<\/Number>/.exec(dial[1])?.[1] ?? dial[1];
  return inner.trim() || null;
}

/**
 * The conference room markup joins: carrier_b's `<Dial><Conference>room</Conference></Dial>`, carrier_a's
 * `<Conference>room</Conference>`; null when it joins none.
 */
export function conferenceRoom(markup: string): string | null {
  const room = /<Conference\b[^>]*>([\s\S]*?)<\/Conference>/.exec(markup);
  return room?.[1].trim() || null;
}
