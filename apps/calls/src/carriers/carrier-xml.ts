/** Escapes text for an XML element or attribute. */
export function xmlEscape(text: string): string {
  return text.replace(
    /[<>&'"]/g,
    (c) => ({ '<': '&lt;', '>': '&gt;', '&': '&amp;', "'": '&apos;', '"': '&quot;' })[c]!,
  );
}

export const XML_CONTENT_TYPE = 'application/xml';

export function xmlReply(body: string): { status: number; contentType: string; body: string } {
  return {
    status: 200,
    contentType: XML_CONTENT_TYPE,
    body: `<?xml version="1.0" encoding="UTF-8"?>\n${body}`,
  };
}

/**
 * The verbs a form-callback carrier's answer markup needs, in that carrier's dialect (element names
 * differ: carrier_a speaks with <Speak>, carrier_b with <Say>). Text arguments arrive unescaped.
 */
export interface MarkupDialect {
  say(text: string): string;
  reject: string;
  dial(number: string): string;
}

/** A greeting when there is one, else an empty document (the carrier then waits for the media stream). */
export function greetingReply(dialect: MarkupDialect, text: string | null | undefined) {
  return xmlReply(text ? `<Response>${dialect.say(xmlEscape(text))}</Response>` : '<Response/>');
}

/** The markup that carries out an inbound routing decision. */
export function decisionReply(
  dialect: MarkupDialect,
  decision: { action: string; transfer_to_number?: string | null },
  speak: string | null,
) {
  switch (decision.action) {
    case 'REJECT':
      return xmlReply(`<Response>${dialect.reject}</Response>`);
    case 'TRANSFER':
      return xmlReply(`<Response>${dialect.dial(xmlEscape(decision.transfer_to_number ?? ''))}</Response>`);
    default:
      return greetingReply(dialect, speak);
  }
}
