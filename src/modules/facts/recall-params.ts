import type { FactView } from './as-of.sql';
import type { RecallStrategy } from './facts.inputs';

/** A recall request after validation: what the ranking and the candidate bounds work from (and which facts it sees). */
export interface RecallParams extends FactView {
  bankId: string;
  query: string;
  queryEmbedding: number[] | null;
  limit: number;
  boost: boolean;
  weight: number;
  minUsefulness: number;
  kinds: string[] | null;
  statuses: string[] | null;
  /** asked for, or the default: SEMANTIC with a client's query embedding, else HYBRID */
  strategy: RecallStrategy;
}
