import { Document } from './document.entity';
import { LayoutProfile } from './layout-profile.entity';

export const learningEntities: Function[] = [Document, LayoutProfile];
export const learningResolvers: Function[] = [];
