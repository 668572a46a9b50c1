import { useCallback, useEffect, useState } from 'preact/hooks';
import { ApiError } from './api/api-error.js';
import { useApp } from './app-context.js';

export interface ApiState<T> {
  data?: T;
  error?: ApiError;
  loading: boolean;
  reload: () => void;
  /** Replaces the data in place (a live event updated it). */
  setData: (update: (data: T | undefined) => T | undefined) => void;
}

/** A GET of `path` (none while `path` is undefined), again whenever `path` changes or `reload` is called. */
export function useApi<T>(path: string | undefined): ApiState<T> {
  const { client } = useApp();
  const [data, setDataState] = useState<T | undefined>(undefined);
  const [error, setError] = useState<ApiError | undefined>(undefined);
  const [loading, setLoading] = useState(path !== undefined);
  const [generation, setGeneration] = useState(0);

  useEffect(() => {
    if (path === undefined) return;
    const controller = new AbortController();
    setLoading(true);
    client
      .get<T>(path, controller.signal)
      .then((answer) => {
        setDataState(answer);
        setError(undefined);
      })
      .catch((failure: unknown) => {
        if (controller.signal.aborted) return;
        setError(failure instanceof ApiError ? failure : new ApiError(0, String(failure)));
      })
      .finally(() => {
        if (!controller.signal.aborted) setLoading(false);
      });
    return () => controller.abort();
  }, [client, path, generation]);

  const reload = useCallback(() => setGeneration((value) => value + 1), []);
  const setData = useCallback((update: (value: T | undefined) => T | undefined) => setDataState(update), []);
  return { data, error, loading, reload, setData };
}
