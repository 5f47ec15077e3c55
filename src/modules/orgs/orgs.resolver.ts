import { Arg, Authorized, Ctx, ID, Mutation, Query, Resolver } from 'type-graphql';
import type { Context } from '../../graphql/context.type';
import { CAN, type Role, RoleEnum } from './role';
import { ApiKey, CreatedApiKey, Viewer } from './orgs.type';
import * as orgs from './orgs.service';

@Resolver()
export class OrgsResolver {
  @Query(() => Viewer, { description: 'The caller: API key, role and organization.' })
  viewer(@Ctx() ctx: Context): Viewer {
    return Viewer.from(ctx.viewer);
  }

  @Query(() => [ApiKey], { description: "The organization's API keys, oldest first (ADMIN only)." })
  @Authorized(CAN.manageKeys)
  async apiKeys(@Ctx() ctx: Context): Promise<ApiKey[]> {
    return (await orgs.listApiKeys(ctx.em, ctx.orgId)).map((k) => ApiKey.from(k));
  }

  @Mutation(() => CreatedApiKey, { description: 'Creates an API key in the caller organization; its token is returned once (ADMIN only).' })
  @Authorized(CAN.manageKeys)
  async createApiKey(
    @Arg('name', { description: 'A name to recognise the key by (1..200 characters).' }) name: string,
    @Arg('role', () => RoleEnum, { description: 'What the key may do.' }) role: Role,
    @Ctx() ctx: Context,
  ): Promise<CreatedApiKey> {
    const { apiKey, token } = await orgs.createApiKey(ctx.em, ctx.orgId, name, role);
    return Object.assign(new CreatedApiKey(), { apiKey: ApiKey.from(apiKey), token });
  }

  @Mutation(() => ApiKey, { description: 'Revokes an API key at once; sockets opened with it are closed (ADMIN only).' })
  @Authorized(CAN.manageKeys)
  async revokeApiKey(@Arg('id', () => ID, { description: 'Id of the key to revoke.' }) id: string, @Ctx() ctx: Context): Promise<ApiKey> {
    const key = await orgs.revokeApiKey(ctx.em, ctx.orgId, id);
    // this instance forgets the key before answering; the others when the event reaches them
    ctx.services.keyCache.forgetKeys(new Set([key.id]));
    ctx.services.bus.pubsub.publish('apiKeyRevoked', { apiKeyId: key.id });
    return ApiKey.from(key);
  }
}
