import { renderResultFormat } from './result-format';

const values = {
  content: 'Refunds take five days.',
  document_name: 'Refund policy',
  document_id: 'c0a8012e-0000-4000-8000-000000000001',
  summary: 'Our refund rules.',
  score: '0.812',
  rank: '1',
  chunk_index: '3',
};

describe('renderResultFormat', () => {
  it('renders the content alone when no format is set', () => {
    expect(renderResultFormat(null, values)).toBe('Refunds take five days.');
    expect(renderResultFormat('', values)).toBe('Refunds take five days.');
  });

  it('fills every placeholder', () => {
    expect(
      renderResultFormat(
        '#{rank} [{document_name} · {score}] {content} ({summary}; chunk {chunk_index} of {document_id})',
        values,
      ),
    ).toBe(
      '#1 [Refund policy · 0.812] Refunds take five days. (Our refund rules.; chunk 3 of c0a8012e-0000-4000-8000-000000000001)',
    );
  });

  it('repeats placeholders and keeps unknown ones and lone braces as written', () => {
    expect(renderResultFormat('{content} / {content} {unknown} {Content} { content } {', values)).toBe(
      'Refunds take five days. / Refunds take five days. {unknown} {Content} { content } {',
    );
  });

  it('turns doubled braces into literal ones', () => {
    expect(renderResultFormat('{{"text": "{content}"}}', values)).toBe('{"text": "Refunds take five days."}');
    expect(renderResultFormat('{{content}}', values)).toBe('{content}');
  });

  it('does not re-expand placeholders that appear inside values', () => {
    expect(renderResultFormat('{content}', { ...values, content: 'literal {document_name}' })).toBe(
      'literal {document_name}',
    );
  });
});
