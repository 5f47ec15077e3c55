import { Check, Entity, Index, type Opt, Property, Unique } from '@mikro-orm/core';
import { OrgOwned } from '../../db/base.entity';
import { FloatArrayType } from '../../db/float-array.type';

/**
 * A fact of a memory bank. Customer-specific mappings (an operator confirms that a key means a
 * value) are facts in bank `mappings` with scope / key / value, unique per org, scope and key.
 */
@Entity({ tableName: 'facts' })
@Index({ properties: ['orgId', 'createdAt', 'id'] })
@Index({ properties: ['orgId', 'bankId', 'createdAt'] })
@Unique({ properties: ['orgId', 'externalId'] })
@Unique({
  name: 'facts_mapping_unique',
  expression: `create unique index "facts_mapping_unique" on "facts" ("org_id", "scope", "key") where "bank_id" = 'mappings'`,
})
@Index({
  name: 'facts_text_only',
  expression: `create index "facts_text_only" on "facts" ("org_id", "bank_id") where "embedding" is null and "text" <> ''`,
})
@Index({ name: 'facts_bank_seq', properties: ['orgId', 'bankId', 'seq'] })
@Check({ name: 'facts_validity', expression: 'valid_to > valid_from' })
@Index({
  name: 'facts_lexical',
  expression: `create index "facts_lexical" on "facts" using gin ("org_id", "bank_id", "text_tsv")`,
})
export class Fact extends OrgOwned {
  @Property({ type: 'text' })
  bankId!: string;

  @Property({ type: 'text', default: '' })
  text: Opt<string> = '';

  @Property({ type: 'text', nullable: true })
  kind: string | null = null;

  @Property({ type: 'text', nullable: true })
  externalId: string | null = null;

  @Property({ type: 'text', nullable: true })
  scope: string | null = null;

  @Property({ type: 'text', nullable: true })
  key: string | null = null;

  @Property({ type: 'text', nullable: true })
  value: string | null = null;

  /** the text's stemmed words (English), kept by PostgreSQL: recall's lexical ranking reads them through `facts_lexical` */
  @Property({
    type: 'unknown',
    columnType: 'tsvector',
    generated: `(to_tsvector('english'::regconfig, text)) stored`,
    lazy: true,
    hidden: true,
  })
  textTsv?: unknown;

  /** the order facts were written in (a row of one upsertFacts call after the rows before it): recall reads a fact's neighbours by it */
  @Property({ type: 'bigint', autoincrement: true, lazy: true, hidden: true })
  seq?: Opt<string>;

  /** SUGGESTED CONFIRMED REJECTED */
  @Property({ type: 'text', default: 'SUGGESTED' })
  status: Opt<string> = 'SUGGESTED';

  @Property({ type: 'double', default: 0.5 })
  confidence: Opt<number> = 0.5;

  @Property({ type: 'integer', default: 0 })
  supportCount: Opt<number> = 0;

  @Property({ type: FloatArrayType, columnType: 'double precision[]', nullable: true })
  embedding: number[] | null = null;

  /** the sum of squares of `embedding`, kept by PostgreSQL (`sum_of_squares`): recall's cosine divides by it */
  @Property({ type: 'double', nullable: true, generated: '(sum_of_squares(embedding)) stored' })
  embeddingNormSq?: number | null;

  /** the model that made the vector ('client' when the caller sent it; see src/modules/embeddings) */
  @Property({ type: 'text', nullable: true })
  embeddingModel: string | null = null;

  /** the vector of the server's current model while a model change re-embeds the organization (swapped in when all are done) */
  @Property({ type: FloatArrayType, columnType: 'double precision[]', nullable: true })
  embeddingNext: number[] | null = null;

  /** the global usefulness score as of `lastSignalAt` (read it decayed to now) */
  @Property({ type: 'double', default: 0.5 })
  usefulness: Opt<number> = 0.5;

  @Property({ type: 'integer', default: 0 })
  signalCount: Opt<number> = 0;

  @Property({ type: 'timestamptz', nullable: true })
  lastSignalAt: Date | null = null;

  @Property({ type: 'timestamptz', nullable: true })
  lastUsedAt: Date | null = null;

  @Property({ type: 'timestamptz', defaultRaw: 'now()' })
  updatedAt: Opt<Date> = new Date();

  /** the fact that replaces this one: recall and `facts` leave it out unless asked (see fact-version.entity.ts) */
  @Property({ type: 'uuid', nullable: true })
  supersededBy: string | null = null;

  /** when the fact starts being true (null: always was) */
  @Property({ type: 'timestamptz', nullable: true })
  validFrom: Date | null = null;

  /** when the fact stops being true (null: still is) */
  @Property({ type: 'timestamptz', nullable: true })
  validTo: Date | null = null;

  /** when the current version began, kept by the trigger that writes `fact_versions` (null: at creation) */
  @Property({ type: 'timestamptz', nullable: true, hidden: true })
  versionAt: Date | null = null;

  /** the API key that wrote the current version (null: the server, or a write that does not say) */
  @Property({ type: 'uuid', nullable: true })
  updatedBy: string | null = null;
}
