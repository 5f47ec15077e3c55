import { EpisodeDecayResolver } from './decay.resolver';
import { EpisodeContextResolver } from './episode-context.resolver';
import { EpisodeFact } from './episode-fact.entity';
import { Episode } from './episode.entity';
import { EpisodesResolver } from './episodes.resolver';
import { EpisodeOutput } from './output.entity';
import { Segment } from './segment.entity';

export const episodeEntities = [Episode, Segment, EpisodeOutput, EpisodeFact];
export const episodeResolvers = [EpisodesResolver, EpisodeContextResolver, EpisodeDecayResolver];
