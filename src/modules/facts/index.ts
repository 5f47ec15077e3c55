import { Fact } from './fact.entity';

export const factEntities: Function[] = [Fact];
export const factResolvers: Function[] = [];
