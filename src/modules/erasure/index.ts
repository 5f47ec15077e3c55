import { Erasure as ErasureEntity } from './erasure.entity';
import { ErasureResolver } from './erasure.resolver';

export const erasureEntities = [ErasureEntity];
export const erasureResolvers = [ErasureResolver];
