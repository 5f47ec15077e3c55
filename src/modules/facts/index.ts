import { Fact } from './fact.entity';
import { FactsResolver } from './facts.resolver';
import { RecallResolver } from './recall.resolver';
import { FactEmbeddingDimension, FactQueryContext, FactSignal } from './signal.entity';
import { SignalsResolver } from './signals.resolver';

export const factEntities: Function[] = [Fact, FactQueryContext, FactSignal, FactEmbeddingDimension];
export const factResolvers: Function[] = [FactsResolver, SignalsResolver, RecallResolver];

export { FactIndex } from './vectors/fact-index';
