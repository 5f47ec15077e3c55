import { Entity, Index, type Opt, Property, Unique } from '@mikro-orm/core';
import { OrgOwned } from '../../db/base.entity';

/** A processed document and its layout fingerprint. `documentId` is the caller's id. */
@Entity({ tableName: 'documents' })
@Unique({ properties: ['orgId', 'documentId'] })
@Index({ properties: ['orgId', 'layoutFingerprint', 'createdAt'] })
@Index({ properties: ['orgId', 'createdAt'] })
export class Document extends OrgOwned {
  @Property({ type: 'text' })
  documentId!: string;

  @Property({ type: 'text' })
  layoutFingerprint!: string;

  @Property({ type: 'integer' })
  pageCount!: number;

  @Property({ type: 'jsonb' })
  pageDimensions!: number[][];

  @Property({ type: 'integer' })
  tableCount!: number;

  @Property({ type: 'double' })
  textCoverageRatio!: number;

  @Property({ type: 'double', nullable: true })
  extractionConfidence: number | null = null;

  @Property({ type: 'timestamptz', defaultRaw: 'now()' })
  updatedAt: Opt<Date> = new Date();
}
