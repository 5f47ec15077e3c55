/**
 * The mark of a subscription whose events are a broadcast: the same for every subscriber of an
 * organization and role, with no first event of its own per subscriber. The WebSocket server lets
 * subscribers of the same such operation share one source stream and one execution per event.
 * A subscription field carries it as a GraphQL field extension (`@Extensions(SHARED_STREAM)`).
 */
export const SHARED_STREAM = { sharedStream: true } as const;

/** Whether a field's extensions carry the mark. */
export const isSharedStream = (extensions: Readonly<Record<string, unknown>> | null | undefined): boolean =>
  extensions?.sharedStream === true;
