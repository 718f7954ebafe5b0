/**
 * The languages the voice catalog offers local speech (eSpeak NG) voices in, a female and a male each: American and
 * British English and the Indian languages of the contract. What the seeded catalog and the API must both list.
 */
export const LOCAL_VOICE_LANGUAGES: readonly string[] = [
  'en-US',
  'en-GB',
  'hi-IN',
  'mr-IN',
  'te-IN',
  'ta-IN',
  'kn-IN',
  'ml-IN',
  'gu-IN',
  'pa-IN',
  'bn-IN',
];
