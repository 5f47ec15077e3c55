import { EpisodeDecayResolver } from './decay.resolver';
import { EpisodeContextResolver } from './episode-context.resolver';
import { EpisodeFact as EpisodeFactEntity } from './episode-fact.entity';
import { Episode as EpisodeEntity } from './episode.entity';
import { EpisodeSubscriptionResolver } from './episode.subscription';
import { EpisodesResolver } from './episodes.resolver';
import { EpisodeOutput as EpisodeOutputEntity } from './output.entity';
import { Segment as SegmentEntity } from './segment.entity';

export const episodeEntities = [EpisodeEntity, SegmentEntity, EpisodeOutputEntity, EpisodeFactEntity];
export const episodeResolvers = [EpisodesResolver, EpisodeContextResolver, EpisodeDecayResolver, EpisodeSubscriptionResolver];

export { oldestEmbeddedDimension } from './episode-dimension';
export { EPISODE_COLUMNS, type EpisodeRow, episodeFromRow } from './episode.rows';
export { Episode } from './episode.type';
export { type NewEpisode, publishEpisodes } from './episode.subscription';
export { getEpisode } from './episodes.query';
export { SEGMENT_FIELD_COLUMNS, SEGMENT_LIST_ALWAYS } from './episodes.loaders';
export { lockEpisode } from './episodes.service';
