import { checkKeyByRequest } from '@vap/llm';
import type { SpeechPlugin } from '../plugin';
import {
  ASSEMBLYAI_DEFAULT_MODEL,
  AssemblyAiSttProvider,
  assemblyAiRestBase,
} from './assemblyai-stt.provider';

export {
  ASSEMBLYAI_DEFAULT_MODEL,
  AssemblyAiSttProvider,
  AssemblyAiSttSession,
  FORMAT_GRACE_MS,
  assemblyAiRestBase,
  assemblyAiStreamingBase,
  assemblyAiStreamingUrl,
} from './assemblyai-stt.provider';

/**
 * AssemblyAI: Universal-Streaming v3 STT. The base URL is the REST API's (keys are checked there); streaming
 * runs on its `streaming.` host (see assemblyAiStreamingBase).
 */
export const assemblyAiPlugin: SpeechPlugin = {
  name: 'assemblyai',
  label: 'AssemblyAI',
  defaultBaseUrl: 'https://api.assemblyai.com',
  stt: {
    create: (config) => new AssemblyAiSttProvider(config),
    streaming: true,
    keyterms: true,
    // The English model reports no language; the multilingual one covers no Indian language.
    codeSwitching: false,
    languages: ['en'],
    defaultModel: ASSEMBLYAI_DEFAULT_MODEL,
  },
  checkKey: ({ apiKey, baseUrl, timeoutMs }, signal) =>
    checkKeyByRequest(
      `${assemblyAiRestBase(baseUrl)}/v2/transcript?limit=1`,
      { headers: { authorization: apiKey } },
      timeoutMs,
      signal,
    ),
};
