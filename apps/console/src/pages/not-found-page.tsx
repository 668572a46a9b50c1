import { base } from '../routes.js';

export function NotFoundPage() {
  return (
    <section>
      <h1>Page not found</h1>
      <p>
        <a href={`${base}/`}>Back to the servers</a>
      </p>
    </section>
  );
}
