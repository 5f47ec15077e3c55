import type { MikroORM } from '@mikro-orm/postgresql';
import type { Config } from '../config';
import type { EventBus } from '../core/event-bus';
import type { Logger } from '../core/logger';
import type { Embedder } from '../modules/embeddings';
import type { BankCounts, FactIndex } from '../modules/facts';
import type { CandidateCache } from '../modules/memory';
import type { KeyCache } from '../modules/orgs';

/** Process-wide parts a resolver may need besides its request context. */
export interface Services {
  config: Config;
  orm: MikroORM;
  bus: EventBus;
  log: Logger;
  /** recall's in-process fact vectors; null when the setting turns them off */
  factIndex: FactIndex | null;
  /** memoryContext's cached candidate lists (a setting of 0 MiB keeps none) */
  memoryCache: CandidateCache;
  /** the facts explorer's bank counts per organization, checked against the facts change log */
  bankCounts: BankCounts;
  /** recently authenticated API keys (forgotten at once on revocation) */
  keyCache: KeyCache;
  /** the server's embedder (provider 'none': disabled, client vectors only) */
  embedder: Embedder;
}
