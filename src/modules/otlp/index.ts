import { OtlpEpisode, OtlpSpan, OtlpTrace } from './otlp.entity';

export const otlpEntities = [OtlpSpan, OtlpTrace, OtlpEpisode];

export { type DecodedExport, decodeJson, decodeProtobuf, exportResponse, type SpanIn, UndecodableExport } from './otlp-decode';
export { closeIdleTraces, type IngestResult, ingestSpans } from './otlp.service';
