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
  /** A conference room by name, as the content of a <Dial> (carrier_b) or on its own (carrier_a). */
  conference(room: string): string;
  /** The bidirectional media stream of an answered call to the voice service (URL with its token). */
  stream(url: string, callId: string): string;
}

/** A greeting when there is one, else an empty document. */
export function greetingReply(dialect: MarkupDialect, text: string | null | undefined) {
  return xmlReply(text ? `<Response>${dialect.say(xmlEscape(text))}</Response>` : '<Response/>');
}

/** An answered call's markup: its audio goes both ways over the media stream, the voice service talks. */
export function streamReply(dialect: MarkupDialect, url: string, callId: string) {
  return xmlReply(`<Response>${dialect.stream(url, callId)}</Response>`);
}

/** Markup that ends the call at once: `<Hangup/>` is the same verb in both carriers' dialects. */
export function hangupReply() {
  return xmlReply('<Response><Hangup/></Response>');
}

/** Markup that dials a number (a cold transfer of the call to it). */
export function dialReply(dialect: MarkupDialect, number: string) {
  return xmlReply(`<Response>${dialect.dial(xmlEscape(number))}</Response>`);
}

/**
 * The markup that carries out an inbound routing decision: reject, transfer, or (answered with an agent)
 * the call's media stream. `streamUrl` is null only for decisions that open no call.
 */
export function decisionReply(
  dialect: MarkupDialect,
  decision: { action: string; transfer_to_number?: string | null; call_id?: string | null },
  streamUrl: string | null,
) {
  switch (decision.action) {
    case 'REJECT':
      return xmlReply(`<Response>${dialect.reject}</Response>`);
    case 'TRANSFER':
      return dialReply(dialect, decision.transfer_to_number ?? '');
    default:
      return streamUrl && decision.call_id
        ? streamReply(dialect, streamUrl, decision.call_id)
        : xmlReply('<Response/>');
  }
}
