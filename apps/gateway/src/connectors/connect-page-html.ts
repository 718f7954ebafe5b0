// The hosted connect pages' markup: small, self-contained (no script, inline style only), accessible (a language,
// a title, one heading, labelled fields, status text in a live region) and escaped throughout.

/** HTML-escapes text for element content and attribute values. */
export function escapeHtml(text: string): string {
  return text
    .replace(/&/g, '&amp;')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;')
    .replace(/"/g, '&quot;')
    .replace(/'/g, '&#39;');
}

const STYLE = `
body{font:16px/1.5 system-ui,sans-serif;margin:0;background:#f6f7f9;color:#1b1f24}
main{max-width:28rem;margin:4rem auto;padding:2rem;background:#fff;border-radius:8px;box-shadow:0 1px 3px #0002}
h1{font-size:1.4rem;margin-top:0}
label{display:block;font-weight:600;margin-bottom:.25rem}
input{width:100%;box-sizing:border-box;padding:.5rem;font:inherit;border:1px solid #6b7280;border-radius:4px}
button{margin-top:1rem;padding:.6rem 1.2rem;font:inherit;border:0;border-radius:4px;background:#1d4ed8;color:#fff}
button:focus,input:focus{outline:3px solid #93c5fd;outline-offset:1px}
.error{color:#b91c1c}`;

function page(title: string, body: string): string {
  return (
    `<!doctype html><html lang="en"><head><meta charset="utf-8">` +
    `<meta name="viewport" content="width=device-width,initial-scale=1">` +
    `<meta name="robots" content="noindex"><title>${escapeHtml(title)}</title>` +
    `<style>${STYLE}</style></head><body><main>${body}</main></body></html>`
  );
}

export function successPage(connectorName: string): string {
  const title = `Connected to ${connectorName}`;
  return page(
    title,
    `<h1>${escapeHtml(title)}</h1><p role="status">Your ${escapeHtml(connectorName)} account is connected. ` +
      `You can close this page.</p>`,
  );
}

export function failurePage(message: string): string {
  return page(
    'Could not connect',
    `<h1>Could not connect</h1><p role="alert" class="error">${escapeHtml(message)}</p>`,
  );
}

/** The API key form: it posts back to its own link (the token in the URL is what makes the post valid). */
export function apiKeyFormPage(connectorName: string, error: string | null): string {
  const title = `Connect ${connectorName}`;
  const problem = error ? `<p id="key-error" role="alert" class="error">${escapeHtml(error)}</p>` : '';
  return page(
    title,
    `<h1>${escapeHtml(title)}</h1>` +
      `<p>Paste your ${escapeHtml(connectorName)} API key. It is stored encrypted and used only for your calls.</p>` +
      problem +
      `<form method="post" autocomplete="off"><label for="api_key">API key</label>` +
      `<input id="api_key" name="api_key" type="password" required maxlength="4096" spellcheck="false"` +
      `${error ? ' aria-invalid="true" aria-describedby="key-error"' : ''}>` +
      `<button type="submit">Connect</button></form>`,
  );
}
