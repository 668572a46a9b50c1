import { useLocation } from 'preact-iso';
import { base } from '../routes.js';
import { ThemeToggle } from './theme-toggle.js';

const pages = [
  { href: `${base}/`, label: 'Servers', matches: (path: string) => path === `${base}/` || path === base },
  { href: `${base}/tools`, label: 'Tools', matches: (path: string) => path.startsWith(`${base}/tools`) },
  { href: `${base}/activity`, label: 'Activity', matches: (path: string) => path === `${base}/activity` },
  { href: `${base}/usage`, label: 'Usage', matches: (path: string) => path === `${base}/usage` },
  { href: `${base}/config`, label: 'Config', matches: (path: string) => path === `${base}/config` },
];

/** The page links, the current one marked with `aria-current="page"`, and sign-out. */
export function Navigation({ onSignOut }: { onSignOut: () => void }) {
  const { path } = useLocation();
  return (
    <nav aria-label="Console">
      <ul>
        <li>
          <strong>Search MCP</strong>
        </li>
      </ul>
      <ul>
        {pages.map((page) => (
          <li key={page.href}>
            <a href={page.href} aria-current={page.matches(path) ? 'page' : undefined}>
              {page.label}
            </a>
          </li>
        ))}
        <li>
          <ThemeToggle />
        </li>
        <li>
          <button type="button" class="secondary outline" onClick={onSignOut}>
            Sign out
          </button>
        </li>
      </ul>
    </nav>
  );
}
