import { createContext } from 'preact';
import { useContext } from 'preact/hooks';
import type { ApiClient } from './api/api-client.js';

export interface AppContextValue {
  client: ApiClient;
  /** Forgets the token and shows the sign-in form, with why (a 401's message) when there is one. */
  signOut: (message?: string) => void;
}

export const AppContext = createContext<AppContextValue | undefined>(undefined);

export function useApp(): AppContextValue {
  const value = useContext(AppContext);
  if (!value) throw new Error('useApp outside the signed-in app');
  return value;
}
