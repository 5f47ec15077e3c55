import { Feedback } from './feedback.entity';

export const feedbackEntities: Function[] = [Feedback];
export const feedbackResolvers: Function[] = [];
