// The partner console: signs the user in (or accepts an invitation), then one page per area of the account.
import { render } from 'preact';
import { useEffect, useState } from 'preact/hooks';
import { AgentFormPage, AgentsPage } from './pages/agents.js';
import { BillingPage } from './pages/billing.js';
import { CallPage, CallsPage, WebSessionPage } from './pages/calls.js';
import { CampaignsPage } from './pages/campaigns.js';
import { ClientsPage } from './pages/clients.js';
import { ConnectionsPage } from './pages/connections/index.js';
import { ContactPolicyPage } from './pages/contact-policy.js';
import { EmbedPage } from './pages/embed.js';
import { KeysPage } from './pages/keys.js';
import { MessagesPage } from './pages/messages.js';
import { ProviderKeysPage } from './pages/provider-keys.js';
import { TelephonyPage } from './pages/telephony.js';
import { SignInPage, TokenPasswordPage } from './pages/sign-in.js';
import { TeamPage } from './pages/team.js';
import { ToolsArea } from './pages/tools/index.js';
import { WebhooksPage } from './pages/webhooks.js';
import { linkProps, navigate, segments, usePath } from './router.js';
import { adoptSession, loadSession, Session, signOut } from './session.js';

const NAV: [string, string][] = [
  ['/agents', 'Agents'],
  ['/tools', 'Tools'],
  ['/calls', 'Calls'],
  ['/messages', 'Messages'],
  ['/campaigns', 'Campaigns'],
  ['/embed', 'Embed on your site'],
  ['/connections', 'Customer connections'],
  ['/webhooks', 'Webhooks'],
  ['/contact-policy', 'Do-not-call and policy'],
  ['/telephony', 'Telephony'],
  ['/keys', 'API keys'],
  ['/provider-keys', 'Provider keys'],
  ['/billing', 'Usage and billing'],
  ['/clients', 'Clients'],
  ['/team', 'Team'],
];

function Page({ path, session }: { path: string; session: Session }) {
  const [area, id, ...rest] = segments(path);
  switch (area) {
    case undefined:
    case 'agents':
      if (id === 'new') return <AgentFormPage session={session} id={null} />;
      return id ? <AgentFormPage session={session} id={id} rest={rest} /> : <AgentsPage session={session} />;
    case 'calls':
      if (id === 'web' && rest[0]) return <WebSessionPage id={rest[0]} />;
      return id ? <CallPage id={id} /> : <CallsPage />;
    case 'messages':
      return <MessagesPage session={session} />;
    case 'connections':
      return <ConnectionsPage session={session} />;
    case 'embed':
      return <EmbedPage session={session} />;
    case 'campaigns':
      return <CampaignsPage session={session} />;
    case 'webhooks':
      return <WebhooksPage session={session} />;
    case 'contact-policy':
      return <ContactPolicyPage session={session} />;
    case 'telephony':
      return <TelephonyPage session={session} />;
    case 'tools':
      return <ToolsArea session={session} rest={[id, ...rest].filter((s) => s !== undefined)} />;
    case 'keys':
      return <KeysPage session={session} />;
    case 'provider-keys':
      return <ProviderKeysPage session={session} />;
    case 'billing':
      return <BillingPage />;
    case 'clients':
      return <ClientsPage session={session} id={id} />;
    case 'team':
      return <TeamPage session={session} />;
    default:
      return (
        <>
          <h2>Not found</h2>
          <p>There is no page here.</p>
        </>
      );
  }
}

function Shell({ session, path, onSignedOut }: { session: Session; path: string; onSignedOut: () => void }) {
  const area = `/${segments(path)[0] ?? 'agents'}`;
  useEffect(() => {
    const label = NAV.find(([to]) => to === area)?.[1];
    document.title = `${label ?? 'Console'} · ${session.account.name}`;
  }, [area, session.account.name]);
  return (
    <div class="shell">
      <a class="skip" href="#main">
        Skip to content
      </a>
      <nav class="nav" aria-label="Console">
        <h1>{session.account.name}</h1>
        <ul>
          {NAV.filter(([to]) => to !== '/clients' || session.account.reseller).map(([to, label]) => (
            <li key={to}>
              <a {...linkProps(to)} aria-current={area === to ? 'page' : undefined}>
                {label}
              </a>
            </li>
          ))}
        </ul>
        <p class="who">
          {session.user.name} ({session.user.email})
          <br />
          Role: {session.user.role}
        </p>
        <button class="secondary" onClick={() => signOut().finally(onSignedOut)}>
          Sign out
        </button>
      </nav>
      <main id="main" tabIndex={-1}>
        <Page path={path} session={session} />
      </main>
    </div>
  );
}

function App() {
  const path = usePath();
  const [session, setSession] = useState<Session | null | undefined>(undefined);
  useEffect(() => {
    loadSession().then(setSession);
  }, []);
  const [area, token] = segments(path);
  const signedIn = (s: Session) => {
    adoptSession(s);
    setSession(s);
    navigate('/agents', true);
  };
  if (area === 'invitations' || area === 'password-resets')
    return <TokenPasswordPage kind={area} token={token ?? ''} onSignedIn={signedIn} />;
  if (session === undefined) return <p class="loading">Loading…</p>;
  if (session === null) return <SignInPage onSignedIn={signedIn} />;
  return <Shell session={session} path={path} onSignedOut={() => setSession(null)} />;
}

// The page's static "Loading the console…" line is not Preact's to diff away: it is removed before the first render.
const root = document.getElementById('app')!;
root.replaceChildren();
render(<App />, root);
