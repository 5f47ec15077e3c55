import { checkFingerprint } from '../shared';
import { Arg, Authorized, Ctx, Int, Mutation, Query, Resolver } from 'type-graphql';
import { listCost } from '../../core/limits';
import type { Context } from '../../graphql/context.type';
import { Fact } from '../facts';
import { CAN } from '../orgs';
import { learningAnalytics } from './analytics.service';
import { fewShotExamples } from './few-shot.service';
import { listProfiles, profilesByFingerprint, recordDocumentLayout } from './layout.service';
import { DocumentLayoutInput, MappingInput } from './learning.inputs';
import { DocumentLayoutResult, FewShotExamples, LayoutProfile, LayoutProfileConnection, LearningAnalytics } from './learning.type';
import { confirmMapping, rejectMapping, resolveMapping } from './mappings.service';

const actor = (ctx: Context) => ({ orgId: ctx.orgId, apiKeyId: ctx.viewer.apiKeyId });

@Resolver()
export class LearningResolver {
  @Mutation(() => DocumentLayoutResult, {
    description: "Records a processed document's layout: computes its fingerprint and counts it in the layout profile.",
  })
  @Authorized(CAN.agentWrite)
  async recordDocumentLayout(
    @Arg('input', () => DocumentLayoutInput, { description: 'The layout.' }) input: DocumentLayoutInput,
    @Ctx() ctx: Context,
  ): Promise<DocumentLayoutResult> {
    const { fingerprint, isNew } = await recordDocumentLayout(ctx.em, ctx.orgId, input);
    const profile = await ctx.loaders.get(profilesByFingerprint).load(fingerprint);
    return Object.assign(new DocumentLayoutResult(), { fingerprint, isNew, profile });
  }

  @Query(() => LayoutProfile, { nullable: true, description: 'The profile of one layout; null when the organization has not seen it.' })
  layoutProfile(
    @Arg('layoutFingerprint', { description: '64 lower-case hex characters.' }) fp: string,
    @Ctx() ctx: Context,
  ): Promise<LayoutProfile | null> {
    return ctx.loaders.get(profilesByFingerprint).load(checkFingerprint('layoutFingerprint', fp));
  }

  @Query(() => LayoutProfileConnection, {
    complexity: listCost(),
    description: 'Layout profiles, most recently seen first; keyset pages of `first` (1..100).',
  })
  layoutProfiles(
    @Ctx() ctx: Context,
    @Arg('first', () => Int, { defaultValue: 20, description: 'Page size, 1..100.' }) first?: number,
    @Arg('after', () => String, { nullable: true, description: '`endCursor` of the previous page.' }) after?: string,
  ): Promise<LayoutProfileConnection> {
    return listProfiles(ctx.em, ctx.orgId, first, after);
  }

  @Query(() => FewShotExamples, { description: 'The latest line/field corrections of a layout, newest first, with the prompt hint JSON.' })
  fewShotExamples(
    @Arg('layoutFingerprint', { description: '64 lower-case hex characters.' }) fp: string,
    @Ctx() ctx: Context,
    @Arg('limit', () => Int, { defaultValue: 3, description: 'How many (1..100).' }) limit?: number,
  ): Promise<FewShotExamples> {
    return fewShotExamples(ctx.em, ctx.orgId, fp, limit ?? 3);
  }

  @Query(() => LearningAnalytics, {
    description: 'Learning loop analytics over a date range of at most 366 days (ADMIN and INTEGRATOR only).',
  })
  @Authorized(CAN.analytics)
  learningAnalytics(
    @Arg('startDate', { description: 'Start of the range (inclusive).' }) startDate: Date,
    @Arg('endDate', { description: 'End of the range (exclusive).' }) endDate: Date,
    @Ctx() ctx: Context,
    @Arg('layoutFingerprint', () => String, { nullable: true, description: 'Only this layout; adds its latest 100 corrections.' })
    fp?: string,
  ): Promise<LearningAnalytics> {
    return learningAnalytics(ctx.em, ctx.orgId, startDate, endDate, fp);
  }

  @Mutation(() => Fact, { description: 'Confirms a mapping: CONFIRMED, confidence 1, support + 1; records MAPPING_CONFIRMED feedback.' })
  @Authorized(CAN.feedbackWrite)
  confirmMapping(
    @Arg('input', () => MappingInput, { description: 'The mapping.' }) input: MappingInput,
    @Ctx() ctx: Context,
  ): Promise<Fact> {
    return confirmMapping(ctx.em, ctx.services.bus, actor(ctx), input);
  }

  @Mutation(() => Fact, {
    description: 'Rejects a mapping: REJECTED with confidence halved when it is the stored value; records MAPPING_REJECTED feedback.',
  })
  @Authorized(CAN.feedbackWrite)
  rejectMapping(
    @Arg('input', () => MappingInput, { description: 'The mapping.' }) input: MappingInput,
    @Ctx() ctx: Context,
  ): Promise<Fact> {
    return rejectMapping(ctx.em, ctx.services.bus, actor(ctx), input);
  }

  @Query(() => Fact, { nullable: true, description: 'The confirmed mapping of a scope and key; null when there is none. Records nothing.' })
  resolveMapping(
    @Arg('scope', { description: 'Scope, e.g. the customer id.' }) scope: string,
    @Arg('key', { description: 'Key, e.g. the customer SKU.' }) key: string,
    @Ctx() ctx: Context,
  ): Promise<Fact | null> {
    return resolveMapping(ctx.em, ctx.orgId, scope, key);
  }
}
