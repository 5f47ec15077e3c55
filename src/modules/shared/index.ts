// The vocabulary several domain modules share; it imports none of them.
export * from './canvas-vocabulary';
export * from './episode-feedback-counters';
export * from './keyset-page';
export * from './layout-fingerprint';
export * from './learning-event-counts';
export * from './page-info.type';
export * from './selection';
export * from './sub-list';
export * from './list-loader';
export * from './prefetch';
export * from './segment-terms';
export * from './memory-trace';
