import { FactDetailResolver } from './fact-detail.resolver';
import { Fact as FactEntity } from './fact.entity';
import { FactSignalsResolver } from './fact-signals';
import { FactVersion as FactVersionEntity } from './fact-version.entity';
import { FactHistoryResolver } from './fact-history.resolver';
import { FactsResolver } from './facts.resolver';
import { RecallResolver } from './recall.resolver';
import {
  FactEmbeddingDimension as FactEmbeddingDimensionEntity,
  FactQueryContext as FactQueryContextEntity,
  FactSignal as FactSignalEntity,
} from './signal.entity';
import { SignalsResolver } from './signals.resolver';

export const factEntities = [FactEntity, FactVersionEntity, FactQueryContextEntity, FactSignalEntity, FactEmbeddingDimensionEntity];
export const factResolvers = [FactsResolver, FactHistoryResolver, SignalsResolver, RecallResolver, FactSignalsResolver, FactDetailResolver];

export { FactIndex } from './vectors/fact-index';
export { BankCounts } from './bank-counts';

export { factEmbedding } from './embedding-dimension';
export { FACT_COLUMNS, type FactRow, factFromRow } from './fact.rows';
export { Fact } from './fact.type';
export { rankingQuery, validateRecall } from './recall.service';
export { INLINE_DIMENSIONS, sumOfSquares } from './usefulness.sql';
export { applySignals, type CreditSource, type Signal } from './signals.service';
export { removeCredit } from './signals.remove';
export { SignalType } from './facts.inputs';
export { FactSignal } from './fact-signals';
export { normalizeQuery } from './usefulness';
