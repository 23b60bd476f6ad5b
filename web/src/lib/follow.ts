import { useEffect } from 'react';

/** How often a page asks again about work the server is doing (a payment awaited, deliveries under way). */
export const FOLLOW_MS = 3000;

/**
 * While `active` (and no load is running), calls `again` every FOLLOW_MS: the page follows something that changes on
 * the server without the user asking. Stops as soon as `active` turns false or the page unmounts.
 */
export function useFollow(active: boolean, loading: boolean, again: () => void): void {
  useEffect(() => {
    if (!active || loading) return;
    const timer = setTimeout(again, FOLLOW_MS);
    return () => clearTimeout(timer);
  }, [active, loading, again]);
}
