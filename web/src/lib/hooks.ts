import { useCallback, useEffect, useRef, useState } from 'react';
import { ApiError } from '../backend/client';
import type { Page } from '../backend/api';

/** What a page loaded: its data, the error if the load failed, whether a load is running, and a way to load again. */
export interface Loaded<T> {
  data: T | null;
  error: ApiError | null;
  loading: boolean;
  reload: () => Promise<void>;
}

export const asApiError = (e: unknown): ApiError =>
  e instanceof ApiError
    ? e
    : new ApiError(e instanceof Error ? e.message : 'Something went wrong', 0, 'client_error', null);

/** Loads `load()` when the component mounts (and on `reload`); a late answer for an unmounted page is dropped. */
export function useLoad<T>(load: () => Promise<T>): Loaded<T> {
  const [data, setData] = useState<T | null>(null);
  const [error, setError] = useState<ApiError | null>(null);
  const [loading, setLoading] = useState(true);
  const loadRef = useRef(load);
  loadRef.current = load;
  const mounted = useRef(true);

  const reload = useCallback(async () => {
    setLoading(true);
    try {
      const value = await loadRef.current();
      if (mounted.current) {
        setData(value);
        setError(null);
      }
    } catch (e) {
      if (mounted.current) setError(asApiError(e));
    } finally {
      if (mounted.current) setLoading(false);
    }
  }, []);

  useEffect(() => {
    mounted.current = true;
    void reload();
    return () => {
      mounted.current = false;
    };
  }, [reload]);

  return { data, error, loading, reload };
}

/** One action at a time (a button's work): whether it runs, and its error. `run` resolves to the result, or null on failure. */
export function useAction() {
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<ApiError | null>(null);
  const run = useCallback(async <T>(work: () => Promise<T>): Promise<T | null> => {
    setBusy(true);
    setError(null);
    try {
      return await work();
    } catch (e) {
      setError(asApiError(e));
      return null;
    } finally {
      setBusy(false);
    }
  }, []);
  const clear = useCallback(() => setError(null), []);
  return { busy, error, run, clear };
}

/**
 * A list a page at a time, in the order the API pages it, more pages on demand: `page(null)` is the first page,
 * `page(cursor)` the one after a `next_cursor`. `load` must be stable (useCallback): a new one loads the list again from the start. `rows` are every
 * page loaded so far; `refresh` goes back to the first page only.
 */
export function usePagedList<T>(page: (before: string | null) => Promise<Page<T>>) {
  const first = useLoad(useCallback(() => page(null), [page]));
  const more = useAction();
  const [further, setFurther] = useState<{ rows: T[]; cursor: string | null } | null>(null);
  useEffect(() => setFurther(null), [page]);
  const rows = [...(first.data?.data ?? []), ...(further?.rows ?? [])];
  const cursor = further ? further.cursor : (first.data?.next_cursor ?? null);
  const loadMore = async () => {
    if (cursor === null) return;
    const next = await more.run(() => page(cursor));
    if (next) setFurther({ rows: [...(further?.rows ?? []), ...next.data], cursor: next.next_cursor });
  };
  const refresh = async () => {
    setFurther(null);
    await first.reload();
  };
  return { first, more, rows, cursor, loadMore, refresh };
}

/** A short date and time in the reader's locale; an em dash for none. */
export function when(iso: string | null | undefined): string {
  if (!iso) return '—';
  return new Date(iso).toLocaleString(undefined, { dateStyle: 'medium', timeStyle: 'short' });
}

/** How often a page asks again about work the server settles within seconds (a payment awaited, deliveries under way). */
export const FOLLOW_MS = 3000;

/**
 * Follows work on the server: while `active`, calls `reload` again after a delay that starts at `firstMs` and grows by
 * half each time up to `maxMs` (backoff: a long batch is asked about less often); the delay starts over when the work
 * becomes active again. Waits for each load to end before the next timer, so requests never overlap.
 */
export function usePolling(
  active: boolean,
  loading: boolean,
  reload: () => Promise<void>,
  firstMs = 1000,
  maxMs = 10_000,
): void {
  const delay = useRef(firstMs);
  useEffect(() => {
    if (!active) {
      delay.current = firstMs;
      return;
    }
    if (loading) return;
    const timer = setTimeout(() => void reload(), delay.current);
    delay.current = Math.min(maxMs, Math.round(delay.current * 1.5));
    return () => clearTimeout(timer);
  }, [active, loading, reload, firstMs, maxMs]);
}

/** A byte count for people. */
export function bytes(n: number): string {
  if (n < 1024) return `${n} B`;
  if (n < 1024 * 1024) return `${(n / 1024).toFixed(1)} KB`;
  return `${(n / 1024 / 1024).toFixed(1)} MB`;
}

/** A long address shortened for a menu (its start and end, which wallets show too); tables show it whole. */
export function shortAddress(address: string): string {
  return address.length > 16 ? `${address.slice(0, 8)}…${address.slice(-6)}` : address;
}
