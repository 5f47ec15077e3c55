export const learningEntities: Function[] = [];
export const learningResolvers: Function[] = [];
