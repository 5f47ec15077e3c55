import { HeartbeatResolver } from './heartbeat.resolver';

export const systemResolvers = [HeartbeatResolver];
