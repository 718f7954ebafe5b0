// A machine answered (voicemail_detection_enabled): the agent leaves its voicemail message, if any, and hangs up.

import type { ConversationPort } from '../conversation-port';
import { substituteVariables } from '../prompt';

/** `interrupt` cuts what is playing (a machine answer that came after the stream started), as barge-in does. */
export function leaveVoicemail(port: ConversationPort, options: { interrupt: boolean }): void {
  const message = port.agent.voicemailMessage
    ? substituteVariables(port.agent.voicemailMessage, port.variables)
    : null;
  void port.endWith('voicemail_detected', message, { interrupt: options.interrupt });
}
