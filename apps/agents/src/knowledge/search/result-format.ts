import { KB_RESULT_PLACEHOLDERS, KbResultPlaceholder } from '@vap/messages';

export const DEFAULT_RESULT_FORMAT = '{content}';

const TOKEN = /\{\{|\}\}|\{([a-z_]+)\}/g;

/**
 * Renders kb_result_format for one result: `{name}` becomes the value of a known placeholder, `{{` and
 * `}}` become literal braces, anything else (an unknown `{name}`, a lone brace) stays as written, so a
 * template is never refused at search time. null or empty renders `{content}`.
 */
export function renderResultFormat(
  template: string | null,
  values: Record<KbResultPlaceholder, string>,
): string {
  const source = template || DEFAULT_RESULT_FORMAT;
  return source.replace(TOKEN, (token, name: string | undefined) => {
    if (token === '{{') return '{';
    if (token === '}}') return '}';
    return name && name in KB_RESULT_PLACEHOLDERS ? values[name as KbResultPlaceholder] : token;
  });
}
