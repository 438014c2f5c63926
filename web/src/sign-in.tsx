import { useState } from "preact/hooks";

export function SignIn(props: { onSignIn: (id: string, secret: string) => Promise<void>; notice: string | null }) {
  const [error, setError] = useState<string | null>(props.notice);
  const [busy, setBusy] = useState(false);
  const submit = async (event: Event) => {
    event.preventDefault();
    const form = new FormData(event.currentTarget as HTMLFormElement);
    setBusy(true);
    try {
      await props.onSignIn(String(form.get("clientId") ?? ""), String(form.get("clientSecret") ?? ""));
    } catch (err) {
      setError((err as Error).message);
      setBusy(false);
    }
  };
  return (
    <main class="signin">
      <form onSubmit={submit} class="card">
        <h1>docsift review</h1>
        <p class="muted">Sign in with an API client that has the validate:annotation scope.</p>
        <label>
          Client id
          <input name="clientId" autoComplete="username" required />
        </label>
        <label>
          Client secret
          <input name="clientSecret" type="password" autoComplete="current-password" required />
        </label>
        {error && <p class="error">{error}</p>}
        <button type="submit" class="primary" disabled={busy}>
          {busy ? "Signing in…" : "Sign in"}
        </button>
      </form>
    </main>
  );
}
