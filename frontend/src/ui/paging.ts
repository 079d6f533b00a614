/**
 * One page request at a time, for a list that loads more as the person scrolls: while a request
 * is in flight, asking again returns it instead of starting another; a failed one is dropped
 * quietly (the next scroll asks again).
 */
export function onePageAtATime(): (request: () => Promise<void>) => Promise<void> {
  let inFlight: Promise<void> | null = null;
  return (request) =>
    (inFlight ??= request()
      .catch(() => undefined)
      .finally(() => {
        inFlight = null;
      }));
}
