import { OrgOtlpSettings, OtlpEpisode, OtlpSpan, OtlpTrace } from './otlp.entity';

export const otlpEntities = [OtlpSpan, OtlpTrace, OtlpEpisode, OrgOtlpSettings];

export { decodeJson, decodeProtobuf, exportResponse, UndecodableExport } from './otlp-decode';
export { closeIdleTraces, ingestSpans } from './otlp.service';
export { memoryToolsProblem, setMemoryTools } from './memory-tools';
