/** Types a post-call extraction key can have. */
export const EXTRACTION_KEY_TYPES = ['boolean', 'string', 'date', 'number', 'enum'] as const;
export type ExtractionKeyType = (typeof EXTRACTION_KEY_TYPES)[number];

/** One value post-call extraction pulls out of a transcript. */
export interface ExtractionKey {
  name: string;
  type: ExtractionKeyType;
  /** The allowed values of an enum key. */
  options?: string[];
  description: string;
}
