import { AsyncLocalStorage } from 'node:async_hooks';
import { randomUUID } from 'node:crypto';

/** What every log line and error of one request carries, without threading it through calls. */
export interface RequestScope {
  requestId: string;
  /** the caller's organization, once authenticated: whose turn on the event loop the request's long work takes */
  orgId?: string;
  operationName?: string;
  /** `extensions.code` of the first error the response carries */
  errorCode?: string;
  /** the request was refused for an ordinary mistake of the caller's (or the caller went away): its log line is info */
  callerMistake?: boolean;
}

const storage = new AsyncLocalStorage<RequestScope>();

export const runInRequestScope = <T>(scope: RequestScope, fn: () => T): T => storage.run(scope, fn);
export const currentRequestScope = (): RequestScope | undefined => storage.getStore();

const REQUEST_ID = /^[A-Za-z0-9._:-]{8,128}$/;
/** A caller-supplied request id is kept if it looks like one; otherwise a fresh UUID. */
export const newRequestId = (given?: string | string[]): string =>
  typeof given === 'string' && REQUEST_ID.test(given) ? given : randomUUID();
