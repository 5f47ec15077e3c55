import { FactDetailResolver } from './fact-detail.resolver';
import { Fact as FactEntity } from './fact.entity';
import { FactsResolver } from './facts.resolver';
import { RecallResolver } from './recall.resolver';
import {
  FactEmbeddingDimension as FactEmbeddingDimensionEntity,
  FactQueryContext as FactQueryContextEntity,
  FactSignal as FactSignalEntity,
} from './signal.entity';
import { SignalsResolver } from './signals.resolver';

export const factEntities = [FactEntity, FactQueryContextEntity, FactSignalEntity, FactEmbeddingDimensionEntity];
export const factResolvers = [FactsResolver, SignalsResolver, RecallResolver, FactDetailResolver];

export { FactIndex } from './vectors/fact-index';

export { factEmbedding } from './embedding-dimension';
export { FACT_COLUMNS, type FactRow, factFromRow } from './fact.rows';
export { Fact } from './fact.type';
export { rankingQuery, validateRecall } from './recall.service';
export { INLINE_DIMENSIONS, sumOfSquares } from './usefulness.sql';
