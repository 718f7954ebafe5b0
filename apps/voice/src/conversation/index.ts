// The conversation pipeline's entry point. The pipeline itself lands separately; until then a media
// session that reaches this point fails its call cleanly (the session reports a failed pipeline).
import type { ConversationOptions, LiveConversation } from './conversation-contract';

export * from './conversation-contract';
export * from './call-reporter';

export function createConversation(options: ConversationOptions): LiveConversation {
  void options;
  throw new Error('conversation pipeline not built');
}
