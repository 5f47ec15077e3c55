import { OtlpEpisode, OtlpSpan, OtlpTrace } from './otlp.entity';

export const otlpEntities = [OtlpSpan, OtlpTrace, OtlpEpisode];

export { decodeJson, decodeProtobuf, exportResponse, UndecodableExport } from './otlp-decode';
export { closeIdleTraces, ingestSpans } from './otlp.service';
