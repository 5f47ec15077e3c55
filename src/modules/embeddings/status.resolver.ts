import type { EntityManager } from '@mikro-orm/postgresql';
import { Ctx, Field, Int, ObjectType, Query, Resolver } from 'type-graphql';
import type { Context } from '../../graphql/context.type';
import { CLIENT_MODEL_ID } from './embedder';

@ObjectType({ description: "How the server embeds text, and how far the caller organization's vectors are in the server's model." })
export class EmbeddingStatus {
  @Field({ description: 'local, openai or none (EMBEDDINGS_PROVIDER).' })
  provider!: string;

  @Field(() => String, { nullable: true, description: "The model id recorded with the server's vectors; null for provider none." })
  model!: string | null;

  @Field(() => Int, {
    nullable: true,
    description: "The size of the server's vectors; null until known (openai learns it from its first answer).",
  })
  dimension!: number | null;

  @Field(() => Int, {
    description:
      "Vectors of the organization (facts, query contexts, episodes) of another model than the server's that are not yet embedded again; 0 when nothing waits. Client vectors are not counted.",
  })
  pendingVectors!: number;
}

async function pendingVectors(em: EntityManager, orgId: string, model: string | null): Promise<number> {
  if (model === null) return 0;
  const [row] = await em.execute<{ n: number }[]>(
    `select (select count(*) from facts where org_id = ? and embedding is not null and embedding_model not in (?, ?))
          + (select count(*) from fact_query_contexts where org_id = ? and query_embedding is not null and embedding_model not in (?, ?))
          + (select count(*) from episodes where org_id = ? and embedding is not null and embedding_model not in (?, ?)) as n`,
    [orgId, model, CLIENT_MODEL_ID, orgId, model, CLIENT_MODEL_ID, orgId, model, CLIENT_MODEL_ID],
  );
  return Number(row.n);
}

@Resolver()
export class EmbeddingStatusResolver {
  @Query(() => EmbeddingStatus, {
    description: "The server's embedding provider and model, and the caller organization's vectors still to embed again.",
  })
  async embeddingStatus(@Ctx() ctx: Context): Promise<EmbeddingStatus> {
    const e = ctx.services.embedder;
    return {
      provider: e.provider,
      model: e.modelId,
      dimension: e.dimension(),
      pendingVectors: await pendingVectors(ctx.em, ctx.orgId, e.modelId),
    };
  }
}
