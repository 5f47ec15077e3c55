import { Document } from './document.entity';
import { LayoutProfile } from './layout-profile.entity';
import { LearningEventCount } from './learning-event-count.entity';
import { LearningResolver } from './learning.resolver';

export const learningEntities: Function[] = [Document, LayoutProfile, LearningEventCount];
export const learningResolvers: Function[] = [LearningResolver];
