import { Arg, Authorized, Ctx, Mutation, Resolver } from 'type-graphql';
import type { Context } from '../../graphql/context.type';
import { listPerInput } from '../../core/limits';
import { CAN } from '../orgs';
import { loadFactsInOrder } from './fact.rows';
import { Fact } from './fact.type';
import { SignalInput } from './facts.inputs';
import { submitSignals } from './signals.service';

@Resolver()
export class SignalsResolver {
  @Mutation(() => [Fact], {
    complexity: listPerInput('signals'),
    description:
      'Records how useful recalled facts were (at most 500 signals; one invalid signal refuses the batch). Returns each signalled fact once, with its new score.',
  })
  @Authorized(CAN.agentWrite)
  async submitSignals(
    @Arg('signals', () => [SignalInput], { description: 'The signals, applied in order.' }) signals: SignalInput[],
    @Arg('idempotencyKey', () => String, {
      nullable: true,
      description: 'A repeat with this key within 24 h returns the first result and writes nothing.',
    })
    idempotencyKey: string | null,
    @Ctx() ctx: Context,
  ): Promise<Fact[]> {
    const ids = await submitSignals(ctx.em, ctx.services.embedder, ctx.orgId, ctx.viewer.apiKeyId, signals, idempotencyKey);
    return loadFactsInOrder(ctx.em, ctx.orgId, ids);
  }
}
