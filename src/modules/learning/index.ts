import { Document } from './document.entity';
import { LayoutProfile } from './layout-profile.entity';
import { LearningResolver } from './learning.resolver';

export const learningEntities: Function[] = [Document, LayoutProfile];
export const learningResolvers: Function[] = [LearningResolver];
