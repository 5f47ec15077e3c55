import { Document as DocumentEntity } from './document.entity';
import { LayoutProfile as LayoutProfileEntity } from './layout-profile.entity';
import { LearningEventCount as LearningEventCountEntity } from './learning-event-count.entity';
import { LearningResolver } from './learning.resolver';

export const learningEntities = [DocumentEntity, LayoutProfileEntity, LearningEventCountEntity];
export const learningResolvers = [LearningResolver];

export { layoutCountsStatement, profilesStatement, seriesStatement } from './analytics.sql';
export { pyDumps } from './python-json';
