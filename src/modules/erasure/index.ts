import { Erasure as ErasureEntity } from './erasure.entity';

export const erasureEntities = [ErasureEntity];
export const erasureResolvers = [] as const;
