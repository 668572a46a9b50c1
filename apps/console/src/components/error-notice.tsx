import type { ApiError } from '../api/api-error.js';

/**
 * A failed request where its result would have been. A 403 says the action needs an admin (docs/console.md,
 * "Signing in") instead of leaving a broken page; every other failure shows the server's own message, as text.
 */
export function ErrorNotice({ error, what }: { error: ApiError | undefined; what?: string }) {
  if (!error) return null;
  if (error.isForbidden) {
    return (
      <p class="notice notice-forbidden" role="alert">
        {what ? `${what} needs an admin` : 'This needs an admin'}: sign in with an admin token. ({error.message})
      </p>
    );
  }
  return (
    <p class="notice notice-error" role="alert">
      {what ? `${what} failed: ` : ''}
      {error.message}
    </p>
  );
}
