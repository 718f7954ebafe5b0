/**
 * A provider's API base in the OpenAI SDK's convention, which every provider setting follows
 * (LLM_BASE_URL, STT_BASE_URL, TTS_BASE_URL): the base names the API version, e.g. `https://api.openai.com/v1`,
 * and each endpoint's path follows it (`/chat/completions`, `/audio/speech`, `/listen`). A bare origin
 * (`https://api.openai.com`) means its `/v1`, so either spelling of the same base works; a base with a path of
 * its own (`https://gateway.example/openai/v1`) is taken as it is. No trailing slash.
 */
export function apiBaseUrl(url: string): string {
  const base = url.trim().replace(/\/+$/, '');
  let path: string;
  try {
    path = new URL(base).pathname;
  } catch {
    return base; // the settings' URL check reports it
  }
  return path === '' || path === '/' ? `${base}/v1` : base;
}
