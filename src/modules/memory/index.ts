export const memoryEntities: Function[] = [];
export const memoryResolvers: Function[] = [];
