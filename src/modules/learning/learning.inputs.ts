import { Field, Float, InputType, Int } from 'type-graphql';

@InputType({ description: 'The layout of a processed document.' })
export class DocumentLayoutInput {
  @Field({ description: "The caller's document id (<= 200 characters); recording it again does not count it twice." })
  documentId!: string;

  @Field(() => Int, { description: 'Pages (>= 0).' })
  pageCount!: number;

  @Field(() => [[Float]], { description: 'Per page, [width, height] in points (positive numbers).' })
  pageDimensions!: number[][];

  @Field(() => Int, { description: 'Tables found (>= 0).' })
  tableCount!: number;

  @Field(() => Float, { description: 'Share of the page area covered by text, 0..1.' })
  textCoverageRatio!: number;

  @Field(() => Float, { nullable: true, description: 'Confidence of the extraction, 0..1 (kept for the trend).' })
  extractionConfidence?: number | null;

  @Field(() => String, { nullable: true, description: 'Repeat-safe key (<= 128 characters).' })
  idempotencyKey?: string | null;
}

@InputType({ description: 'A mapping decision: in `scope` (e.g. a customer), `key` (their SKU) means `value` (our SKU).' })
export class MappingInput {
  @Field({ description: 'Scope, e.g. the customer id (<= 200 characters).' })
  scope!: string;

  @Field({ description: 'Key, e.g. the customer SKU (<= 200 characters).' })
  key!: string;

  @Field({ description: 'Value, e.g. the internal SKU (<= 200 characters).' })
  value!: string;

  @Field(() => String, { nullable: true, description: "The operator's own user id." })
  actorUserId?: string | null;
}
