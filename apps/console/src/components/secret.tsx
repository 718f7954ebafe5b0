// A secret the platform shows once (a signing secret on creation or rotation): shown with a copy button and
// the plain warning that it will not be shown again.
import { CopyButton } from './ui.js';

export function SecretOnce({
  title,
  secret,
  onDone,
  use,
}: {
  title: string;
  secret: string;
  onDone: () => void;
  /** What the secret is for, in a sentence. */
  use: string;
}) {
  return (
    <section class="card notice" aria-labelledby="secret-h" role="status">
      <h3 id="secret-h">{title}</h3>
      <p>
        <strong>Copy it now: you won’t see this secret again.</strong> {use}
      </p>
      <p class="secret" data-testid="signing-secret">
        {secret}
      </p>
      <CopyButton text={secret} label="Copy secret" />{' '}
      <button type="button" class="secondary" onClick={onDone}>
        I have stored it
      </button>
    </section>
  );
}
