import { Field, ObjectType } from 'type-graphql';

@ObjectType({ simpleResolvers: true, description: 'Where a page of a connection ends.' })
export class PageInfo {
  @Field({ description: 'True when another page follows.' })
  hasNextPage!: boolean;

  @Field(() => String, { nullable: true, description: 'Pass as `after` to get the next page; null on an empty page.' })
  endCursor!: string | null;
}
