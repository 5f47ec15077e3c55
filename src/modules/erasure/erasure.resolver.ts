import { Arg, Authorized, Ctx, ID, Int, Mutation, Query, Resolver } from 'type-graphql';
import { parseId } from '../../core/ids';
import { listCost } from '../../core/limits';
import type { Context } from '../../graphql/context.type';
import { CAN } from '../orgs';
import { keysetPage } from '../shared';
import { sql } from '../../db/typed-sql';
import { deleteEpisodes, deleteFacts, eraseSubject } from './erasure.service';
import { ErasureConnection, ErasureRecord, ErasureResult, ErasureSelector } from './erasure.type';

const ids = (field: string, v: string[] | null | undefined) => (v ?? []).map((x, i) => parseId(`${field}.${i}`, x));

@Resolver()
export class ErasureResolver {
  @Mutation(() => ErasureResult, {
    description:
      'Deletes facts by id or externalId (within bankId when given), or every fact of bankId, with their history, signals and query contexts (ADMIN, INTEGRATOR).',
  })
  @Authorized(CAN.erase)
  async deleteFacts(
    @Arg('ids', () => [ID], { nullable: true, description: 'Fact ids, at most 1,000.' }) idList: string[] | null,
    @Arg('externalIds', () => [String], { nullable: true, description: 'External ids, at most 1,000.' }) externalIds: string[] | null,
    @Arg('bankId', () => String, { nullable: true, description: 'Only facts of this bank; alone, every fact of it.' })
    bankId: string | null,
    @Arg('dryRun', { defaultValue: false, description: 'Count only; delete nothing.' }) dryRun: boolean,
    @Ctx() ctx: Context,
  ): Promise<ErasureResult> {
    const a = { ids: ids('ids', idList), externalIds, bankId };
    return ErasureResult.from(await deleteFacts(ctx.em, ctx.orgId, ctx.viewer.apiKeyId, a, dryRun));
  }

  @Mutation(() => ErasureResult, {
    description: 'Deletes episodes with their segments, outputs, fact links, feedback and canvas actions (ADMIN, INTEGRATOR).',
  })
  @Authorized(CAN.erase)
  async deleteEpisodes(
    @Arg('ids', () => [ID], { description: 'Episode ids, at most 1,000.' }) idList: string[],
    @Arg('dryRun', { defaultValue: false, description: 'Count only; delete nothing.' }) dryRun: boolean,
    @Ctx() ctx: Context,
  ): Promise<ErasureResult> {
    return ErasureResult.from(await deleteEpisodes(ctx.em, ctx.orgId, ctx.viewer.apiKeyId, ids('ids', idList), dryRun));
  }

  @Mutation(() => ErasureResult, {
    description:
      'Erases everything about a subject (an agent, a session, a bank, or a metadata key and value), in batches; a retry reports zero (ADMIN, INTEGRATOR).',
  })
  @Authorized(CAN.erase)
  async eraseSubject(
    @Arg('selector', () => ErasureSelector, { description: 'Whom it is about.' }) selector: ErasureSelector,
    @Arg('dryRun', { defaultValue: false, description: 'Count only; delete nothing.' }) dryRun: boolean,
    @Ctx() ctx: Context,
  ): Promise<ErasureResult> {
    return ErasureResult.from(await eraseSubject(ctx.em, ctx.orgId, ctx.viewer.apiKeyId, selector, dryRun));
  }

  @Query(() => ErasureConnection, { complexity: listCost(), description: 'The audit log of erasures, newest first (ADMIN).' })
  @Authorized(CAN.manageKeys)
  async erasures(
    @Arg('first', () => Int, { defaultValue: 20, description: 'Page size, 1..100.' }) first: number,
    @Arg('after', () => String, { nullable: true, description: 'endCursor of the previous page.' }) after: string | null,
    @Ctx() ctx: Context,
  ): Promise<ErasureConnection> {
    const query = sql
      .selectFrom('erasures as x')
      .select(['x.id', 'x.created_at', 'x.api_key_id', 'x.operation', 'x.selector', 'x.dry_run', 'x.counts'])
      .where('x.org_id', '=', ctx.orgId);
    return keysetPage(ctx.em, query, {
      alias: 'x',
      sortColumn: 'created_at',
      first,
      after,
      toNodes: (rows) => rows.map((r) => ErasureRecord.from(r)),
    });
  }
}
