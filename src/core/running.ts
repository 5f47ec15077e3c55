/**
 * Gives up the request's running slot on this instance while `wait` is pending, and takes it back
 * (waiting in line as any request) before the request goes on: for a wait that uses neither the
 * event loop nor the database pool, such as the embedding model's thread. The request keeps its
 * key's and organization's slots meanwhile. A request that holds no instance slot just waits.
 */
export type StepAside = <T>(wait: Promise<T>) => Promise<T>;

/** The request keeps what it holds while it waits. */
export const stayInPlace: StepAside = (wait) => wait;
