import { AttachVoice } from './attach-voice/attach-voice.usecase';
import { MediaStreamClaims } from './attach-voice/media-stream-claims';
import { EndVoiceSession } from './end-voice-session/end-voice-session.usecase';
import { HandOffCall } from './hand-off-call/hand-off-call.usecase';
import { HangUpCall } from './hang-up-call/hang-up-call.usecase';
import { OptOutCaller } from './opt-out-caller/opt-out-caller.usecase';
import { RecordToolCall } from './record-tool-call/record-tool-call.usecase';
import { RecordTranscriptLine } from './record-transcript-line/record-transcript-line.usecase';
import { SendDigits } from './send-digits/send-digits.usecase';
import { CallTransferService } from './transfer-call/call-transfer.service';
import { TransferCall } from './transfer-call/transfer-call.usecase';
import { WarmTransfer } from './warm-transfer/warm-transfer.usecase';
import { DecideTransfer } from './decide-transfer/decide-transfer.usecase';

export {
  AttachVoice,
  EndVoiceSession,
  HandOffCall,
  HangUpCall,
  OptOutCaller,
  RecordToolCall,
  RecordTranscriptLine,
  SendDigits,
  TransferCall,
  WarmTransfer,
  DecideTransfer,
};

/** One use case per calls.voice.* command (and what each one alone uses), as VoiceHandlers routes them. */
export const VOICE_COMMAND_USE_CASES = [
  AttachVoice,
  MediaStreamClaims,
  RecordTranscriptLine,
  RecordToolCall,
  TransferCall,
  CallTransferService,
  WarmTransfer,
  DecideTransfer,
  HandOffCall,
  SendDigits,
  HangUpCall,
  OptOutCaller,
  EndVoiceSession,
];
