import { useEffect, useState } from 'preact/hooks';

type Theme = 'auto' | 'light' | 'dark';
const key = 'search-mcp-console-theme';
const next: Record<Theme, Theme> = { auto: 'dark', dark: 'light', light: 'auto' };

/**
 * Pico follows `prefers-color-scheme` by itself ("auto"); this button pins light or dark with Pico's `data-theme`
 * attribute and remembers the choice in localStorage.
 */
export function ThemeToggle() {
  const [theme, setTheme] = useState<Theme>(() => (localStorage.getItem(key) as Theme | null) ?? 'auto');
  useEffect(() => {
    if (theme === 'auto') document.documentElement.removeAttribute('data-theme');
    else document.documentElement.setAttribute('data-theme', theme);
    localStorage.setItem(key, theme);
  }, [theme]);
  return (
    <button
      type="button"
      class="secondary outline"
      // The visible text is the name (WCAG "label in name"); the title says what a press does.
      title={`Switch to ${next[theme]}`}
      onClick={() => setTheme(next[theme])}
    >
      Theme: {theme}
    </button>
  );
}
