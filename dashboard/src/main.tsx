import { render } from 'preact';
import { useEffect, useMemo, useState } from 'preact/hooks';
import { ApiError, request } from './api';
import { DashViewerDocument, type DashViewerQuery } from './generated/graphql';
import { LiveFeed } from './live';
import { forgetKey, readKey, readViewer, storeKey, storeViewer } from './session';
import { Shell } from './shell';
import './style.css';

type Viewer = DashViewerQuery['viewer'];

function SignIn(props: { onSignedIn(key: string, viewer: Viewer): void; message: string | null }) {
  const [value, setValue] = useState('');
  const [message, setMessage] = useState(props.message);
  const [busy, setBusy] = useState(false);
  const submit = async (e: Event) => {
    e.preventDefault();
    const key = value.trim();
    if (!key) return setMessage('Type an API key.');
    setBusy(true);
    try {
      const { viewer } = await request(key, DashViewerDocument, {});
      storeKey(key);
      storeViewer(viewer);
      props.onSignedIn(key, viewer);
    } catch (err) {
      const e = err as ApiError;
      setMessage(e.status === 401 ? `This key was not accepted: ${e.message}.` : `Sign-in failed: ${e.message}.`);
    } finally {
      setBusy(false);
    }
  };
  return (
    <main class="signin">
      <h1>memory-loop</h1>
      <form onSubmit={(e) => void submit(e)} autocomplete="off">
        <label for="api-key">API key</label>
        <input
          id="api-key"
          name="api-key"
          type="password"
          value={value}
          onInput={(e) => setValue(e.currentTarget.value)}
          placeholder="ml_…"
        />
        <button type="submit" disabled={busy}>
          Sign in
        </button>
        <p class="hint">The key stays in this tab only (sessionStorage) and goes to the server in the Authorization header.</p>
        {message && (
          <p class="error" role="alert" data-testid="signin-error">
            {message}
          </p>
        )}
      </form>
    </main>
  );
}

function App() {
  // a reload draws with the viewer remembered in the tab while the key is checked again
  const [session, setSession] = useState<{ key: string; viewer: Viewer } | null>(() => {
    const key = readKey();
    const viewer = readViewer<Viewer>();
    return key && viewer ? { key, viewer } : null;
  });
  const [checking, setChecking] = useState(() => readKey() !== null && session === null);
  const [message, setMessage] = useState<string | null>(null);

  useEffect(() => {
    const key = readKey();
    if (!key) return;
    request(key, DashViewerDocument, {})
      .then(
        ({ viewer }) => {
          storeViewer(viewer);
          setSession({ key, viewer });
        },
        (e: ApiError) => {
          if (e.status === 0) return; // unreachable: keep the session, the views say so
          forgetKey();
          setSession(null);
          setMessage(`Signed out: ${e.message}.`);
        },
      )
      .finally(() => setChecking(false));
  }, []);

  // one stream per signed-in key, for as long as it is signed in
  const feed = useMemo(() => (session ? new LiveFeed(session.key) : null), [session?.key]);
  useEffect(() => () => feed?.close(), [feed]);

  if (checking) return <p class="loading">Loading…</p>;
  if (!session || !feed) return <SignIn message={message} onSignedIn={(key, viewer) => setSession({ key, viewer })} />;
  const signOut = () => {
    forgetKey();
    setSession(null);
  };
  return <Shell apiKey={session.key} viewer={session.viewer} feed={feed} onSignOut={signOut} />;
}

render(<App />, document.getElementById('app')!);
