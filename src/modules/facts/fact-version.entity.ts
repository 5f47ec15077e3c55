import { Entity, Index, Property } from '@mikro-orm/core';
import { OrgOwned } from '../../db/base.entity';
import { FloatArrayType } from '../../db/float-array.type';

/**
 * A past version of a fact: its values as they were from `versionFrom` until `createdAt`, when a
 * write changed one of text, value, status, kind, embedding, bank, validity or supersession. A
 * trigger on `facts` writes these rows (every writer is covered), so they are never written here.
 * `seq` is the fact's place in its bank and `textTsv` its stems then: recall as of a past instant
 * reads versions as it reads facts. Erasing a fact erases its versions.
 */
@Entity({ tableName: 'fact_versions' })
// by fact alone: led by org_id it would tempt the planner into scanning an organization's versions by time
@Index({ properties: ['factId', 'createdAt'] })
@Index({ name: 'fact_versions_bank_seq', properties: ['orgId', 'bankId', 'seq'] })
@Index({
  name: 'fact_versions_lexical',
  expression: `create index "fact_versions_lexical" on "fact_versions" using gin ("org_id", "bank_id", "text_tsv")`,
})
export class FactVersion extends OrgOwned {
  @Property({ type: 'uuid' })
  factId!: string;

  @Property({ type: 'bigint' })
  seq!: string;

  @Property({ type: 'text' })
  bankId!: string;

  @Property({ type: 'text' })
  text!: string;

  @Property({ type: 'text', nullable: true })
  kind: string | null = null;

  @Property({ type: 'text', nullable: true })
  value: string | null = null;

  @Property({ type: 'text' })
  status!: string;

  @Property({ type: FloatArrayType, columnType: 'double precision[]', nullable: true })
  embedding: number[] | null = null;

  @Property({ type: 'double', nullable: true, generated: '(sum_of_squares(embedding)) stored' })
  embeddingNormSq?: number | null;

  @Property({ type: 'text', nullable: true })
  embeddingModel: string | null = null;

  @Property({
    type: 'unknown',
    columnType: 'tsvector',
    generated: `(to_tsvector('english'::regconfig, text)) stored`,
    lazy: true,
    hidden: true,
  })
  textTsv?: unknown;

  @Property({ type: 'uuid', nullable: true })
  supersededBy: string | null = null;

  @Property({ type: 'timestamptz', nullable: true })
  validFrom: Date | null = null;

  @Property({ type: 'timestamptz', nullable: true })
  validTo: Date | null = null;

  /** when this version began */
  @Property({ type: 'timestamptz' })
  versionFrom!: Date;

  /** the key that wrote this version, and the key whose write ended it */
  @Property({ type: 'uuid', nullable: true })
  writtenBy: string | null = null;

  @Property({ type: 'uuid', nullable: true })
  changedBy: string | null = null;

  /** the fields the write that ended this version changed */
  @Property({ type: 'text[]' })
  changed!: string[];
}
