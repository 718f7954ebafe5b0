// The agent's send_dtmf tool (offered as the agent tool catalog, @vap/messages, says): the model presses keys on the call (a phone menu, an extension). Carriers with a
// send-digits request (carrier_a) get it through the calls service; on the others (carrier_b, the sandbox,
// browsers) the tones are played in-band into the agent's audio, which is what the far end's menu listens to.

import { dtmfInputText, SEND_DTMF_MAX, SEND_DTMF_PATTERN } from '@vap/messages';
export { SEND_DTMF_TOOL } from '@vap/messages';
import type { ToolCall } from '@vap/llm';
import { dtmfTones, mulawDecode, type MediaStreamProtocol } from '@vap/media';

/** How this stream's call takes the agent's keys. */
export type DtmfRoute = 'carrier' | 'in_band';

/** carrier_a has a REST request for keys on a live call; carrier_b has none without leaving the stream. */
export function dtmfRouteOf(protocol: MediaStreamProtocol): DtmfRoute {
  return protocol === 'carrier_a' ? 'carrier' : 'in_band';
}

/** The call's digits, when they are keys the tool can press. */
export function digitsOf(call: ToolCall): string | null {
  const digits = call.arguments.digits;
  const text =
    typeof digits === 'number' && Number.isInteger(digits) && digits >= 0 ? String(digits) : digits;
  if (typeof text !== 'string') return null;
  const compact = text.replace(/[\s-]/g, '');
  return SEND_DTMF_PATTERN.test(compact) ? compact : null;
}

export interface DtmfSending {
  route: DtmfRoute;
  /** In-band: plays the tones as a line of the agent's (resolves once played or cut; true when all played). */
  play(label: string, audio: Int16Array): Promise<boolean>;
  /** Carrier: asks the calls service to have the carrier send the keys; true when it did. */
  viaCarrier(digits: string): Promise<boolean>;
}

const PRESSED = 'Pressed ';

/** Whether a sendDtmf result says every key was pressed. */
export function pressedAll(result: string): boolean {
  return result.startsWith(PRESSED);
}

/** Presses the tool call's keys; the tool result for the model. */
export async function sendDtmf(call: ToolCall, sending: DtmfSending): Promise<string> {
  const digits = digitsOf(call);
  if (digits === null)
    return `Not sent: digits must be 1 to ${SEND_DTMF_MAX} of 0-9, *, #, A-D and w (a pause).`;
  if (sending.route === 'carrier') {
    return (await sending.viaCarrier(digits))
      ? `${PRESSED}${digits}.`
      : 'The keys could not be sent; the call may have ended.';
  }
  const played = await sending.play(dtmfInputText(digits, null), mulawDecode(dtmfTones(digits)));
  return played ? `${PRESSED}${digits}.` : 'The keys were cut off before all of them were played.';
}
