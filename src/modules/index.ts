import type { NonEmptyArray } from 'type-graphql';

/** A resolver class, as the schema builder takes it. */
type ResolverClass = new (...args: never[]) => object;
import { IdempotencyKey } from '../core/idempotency.entity';
import { ChangeLogEntry } from '../db/change-log.entity';
import { canvasEntities, canvasResolvers } from './canvas';
import { embeddingResolvers } from './embeddings';
import { erasureEntities, erasureResolvers } from './erasure';
import { episodeEntities, episodeResolvers } from './episodes';
import { factEntities, factResolvers } from './facts';
import { feedbackEntities, feedbackResolvers } from './feedback';
import { learningEntities, learningResolvers } from './learning';
import { memoryEntities, memoryResolvers } from './memory';
import { orgEntities, orgResolvers } from './orgs';
import { otlpEntities } from './otlp';
import { usageEntities, usageResolvers } from './usage';
import { systemResolvers } from './system';
import { traceEntities, traceResolvers } from './traces';

/** Every entity the ORM knows; each module lists its own in its index.ts. */
export const entities = [
  ...orgEntities,
  IdempotencyKey,
  ChangeLogEntry,
  ...episodeEntities,
  ...canvasEntities,
  ...factEntities,
  ...feedbackEntities,
  ...learningEntities,
  ...memoryEntities,
  ...usageEntities,
  ...traceEntities,
  ...erasureEntities,
  ...otlpEntities,
];

/** Every resolver of the schema; each module lists its own in its index.ts. */
export const resolvers: NonEmptyArray<ResolverClass> = [
  ...orgResolvers,
  ...systemResolvers,
  ...episodeResolvers,
  ...canvasResolvers,
  ...factResolvers,
  ...feedbackResolvers,
  ...learningResolvers,
  ...memoryResolvers,
  ...usageResolvers,
  ...embeddingResolvers,
  ...traceResolvers,
  ...erasureResolvers,
];
