import { OtlpEpisode, OtlpSpan, OtlpTrace } from './otlp.entity';

export const otlpEntities = [OtlpSpan, OtlpTrace, OtlpEpisode];
