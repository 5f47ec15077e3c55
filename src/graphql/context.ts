import type { EntityManager } from '@mikro-orm/postgresql';
import { GraphQLError } from 'graphql';
import { type StepAside, stayInPlace } from '../core/running';
import { hashToken } from '../core/tokens';
import { isDatabaseUnavailable } from '../db/unavailable';
import { authenticate, type Viewer } from '../modules/orgs';
import type { Context } from './context.type';
import { unavailableError } from './errors';
import { Loaders } from './loaders';
import type { Services } from './services';

/** `Bearer <token>` -> token; null when absent or malformed. */
export function bearerToken(header: unknown): string | null {
  if (typeof header !== 'string') return null;
  const m = /^Bearer\s+(\S+)\s*$/i.exec(header);
  return m ? m[1] : null;
}

/** Why a caller was not authenticated: the words a refusal says (a WebSocket's close reason too). */
const AUTH_REFUSALS = {
  missing: 'an API key is required: send "Authorization: Bearer <token>"',
  malformed: 'the Authorization value must be "Bearer <token>"',
  unknown: 'the API key is unknown',
  revoked: 'the API key is revoked',
} as const;
type AuthRefusal = keyof typeof AUTH_REFUSALS;

const unauthenticatedError = (message: string, reason?: AuthRefusal) =>
  new GraphQLError(message, { extensions: { code: 'UNAUTHENTICATED', http: { status: 401 }, ...(reason ? { reason } : {}) } });

// one long-lived fork per ORM for plain SQL reads that never touch an identity map (authentication,
// the loaders, read-only lists): no fork per request, and no request-context lookup as on the global
// EntityManager. Every statement read through it names its organization itself.
const readers = new WeakMap<object, EntityManager>();
const readerOf = (services: Services): EntityManager => {
  let em = readers.get(services.orm);
  if (!em) readers.set(services.orm, (em = services.orm.em.fork()));
  return em;
};

/** The caller of an Authorization value when the key cache has it (no promise), else undefined. */
export function cachedViewer(services: Services, authorization: unknown): Viewer | undefined {
  const token = bearerToken(authorization);
  return token ? services.keyCache.get(hashToken(token)) : undefined;
}

/**
 * Looks up the caller of an Authorization value (from the key cache when it was seen recently);
 * throws UNAUTHENTICATED when it is not a valid key, SERVICE_UNAVAILABLE (HTTP 503) when the
 * database cannot be reached to tell.
 */
export async function viewerFor(services: Services, authorization: unknown): Promise<Viewer> {
  const token = bearerToken(authorization);
  if (!token) {
    const reason = authorization === undefined || authorization === null || authorization === '' ? 'missing' : 'malformed';
    throw unauthenticatedError(AUTH_REFUSALS[reason], reason);
  }
  const tokenHash = hashToken(token);
  const cached = services.keyCache.get(tokenHash);
  if (cached) return cached;
  const epoch = services.keyCache.begin();
  let viewer: Viewer | 'revoked' | null;
  try {
    viewer = await authenticate(readerOf(services), tokenHash);
  } catch (err) {
    if (isDatabaseUnavailable(err)) throw unavailableError();
    throw err;
  }
  if (viewer === null) throw unauthenticatedError(AUTH_REFUSALS.unknown, 'unknown');
  if (viewer === 'revoked') throw unauthenticatedError(AUTH_REFUSALS.revoked, 'revoked');
  services.keyCache.set(tokenHash, viewer, epoch);
  return viewer;
}

/**
 * The context of one operation: its own EntityManager fork, loaders and child logger, each made on
 * first use (an operation that reads nothing from the database, such as `viewer`, forks nothing).
 * Loaders and plain reads go through the shared reader, so a read-only operation forks nothing either.
 * They are fields of the prototype, so Apollo Server's copy of the context per operation stays lazy.
 */
class OperationContext implements Context {
  readonly orgId: string;
  private forked?: EntityManager;
  private made?: Loaders;
  private child?: Context['log'];

  constructor(
    readonly services: Services,
    readonly viewer: Viewer,
    readonly requestId: string,
    readonly aside: StepAside,
  ) {
    this.orgId = viewer.orgId;
  }

  get em(): EntityManager {
    return (this.forked ??= this.services.orm.em.fork());
  }

  get reader(): EntityManager {
    return readerOf(this.services);
  }

  get loaders(): Loaders {
    return (this.made ??= new Loaders(this.reader, this.orgId));
  }

  get log(): Context['log'] {
    return (this.child ??= this.services.log.child({ orgId: this.orgId }));
  }
}

/** A fresh context for one operation. */
export function makeContext(services: Services, viewer: Viewer, requestId: string, aside: StepAside = stayInPlace): Context {
  return new OperationContext(services, viewer, requestId, aside);
}

/**
 * The context one subscription event executes with: the subscriber's (its viewer, request id and
 * services), with an EntityManager and loaders of its own. A subscription's context lives as long
 * as its stream, so without this an event would be served from an earlier event's cache; events of
 * one stream may also execute at the same time.
 */
export function eventContext(base: Context): Context {
  return makeContext(base.services, base.viewer, base.requestId);
}
