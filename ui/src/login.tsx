/**
 * The dashboard's sign-in page, shown when the admin API wants its token (`--admin-token`).
 *
 * @module
 */

/**
 * The login form: a plain form posting the token to `/__mock/login`, which sets the admin cookie and sends a
 * wrong token back here with `?login=failed` (src/core/admin/guard.ts).
 */
export function Login() {
  const failed = new URLSearchParams(location.search).get('login') === 'failed';
  return (
    <main class="login">
      <form method="post" action="/__mock/login" class="card">
        <h1>mockrouter dashboard</h1>
        <p>This server's admin API needs its admin token (<code>--admin-token</code>).</p>
        {failed && (
          <p role="alert" class="login-error">
            That token is not this server's admin token.
          </p>
        )}
        <label for="login-token">Admin token</label>
        <input id="login-token" name="token" type="password" autoComplete="current-password" required autoFocus />
        <button type="submit" class="primary">
          Sign in
        </button>
      </form>
    </main>
  );
}

