import { Ctx, Query, Resolver } from 'type-graphql';
import type { Context } from '../../graphql/context.type';
import { StorageUsage } from './usage.type';
import { storageUsage } from './usage.service';

@Resolver()
export class UsageResolver {
  @Query(() => StorageUsage, { description: "The caller organization's stored rows and bytes, and its storage quotas." })
  async storageUsage(@Ctx() ctx: Context): Promise<StorageUsage> {
    return StorageUsage.from(await storageUsage(ctx.em, ctx.orgId));
  }
}
