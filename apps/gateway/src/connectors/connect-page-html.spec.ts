import { apiKeyFormPage, escapeHtml, failurePage, successPage } from './connect-page-html';

describe('connect pages', () => {
  it('escapes whatever it shows', () => {
    expect(escapeHtml(`<a href="x">'&'</a>`)).toBe('&lt;a href=&quot;x&quot;&gt;&#39;&amp;&#39;&lt;/a&gt;');
    expect(successPage('<script>alert(1)</script>')).not.toContain('<script>');
    expect(failurePage('"><img src=x>')).not.toContain('<img');
  });

  it('is an accessible page: language, title, one heading, a labelled field and announced errors', () => {
    const page = apiKeyFormPage('Acme', 'Paste your API key.');
    expect(page).toMatch(/^<!doctype html><html lang="en">/);
    expect(page).toContain('<title>Connect Acme</title>');
    expect(page.match(/<h1>/g)).toHaveLength(1);
    expect(page).toContain('<label for="api_key">API key</label>');
    expect(page).toContain('aria-describedby="key-error"');
    expect(page).toContain('role="alert"');
    expect(apiKeyFormPage('Acme', null)).not.toContain('aria-invalid');
    expect(successPage('Acme')).toContain('role="status"');
  });
});
