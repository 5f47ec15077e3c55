import { GraphQLError } from 'graphql';
import { CloseCode } from 'graphql-ws';
import type { WebSocket } from 'ws';
import type { Services } from '../graphql/services';
import { type Role, validKeyRoles } from '../modules/orgs';
import type { SocketState } from './ws';
import type { SocketOutbox } from './ws-outbox';

/**
 * The API keys of open sockets, kept current: a revocation reaches open sockets of every instance
 * at once through the bus (`closeForKeys`), and a periodic re-check (KEY_RECHECK_MS) is the
 * backstop (a missed event, a key revoked with SQL) and how a role changed in the database reaches
 * them.
 */
export class SocketKeys {
  private readonly timer: NodeJS.Timeout;

  constructor(
    private readonly states: Map<WebSocket, SocketState>,
    private readonly outboxes: Map<WebSocket, SocketOutbox>,
    private readonly services: Services,
  ) {
    this.timer = setInterval(() => void this.recheck(), services.config.keyRecheckMs);
    this.timer.unref();
  }

  /** closes the sockets opened with these API keys (4403) */
  closeForKeys(keyIds: Set<string>): void {
    for (const [socket, state] of this.states) {
      if (state.viewer && keyIds.has(state.viewer.apiKeyId)) socket.close(CloseCode.Forbidden, 'API key revoked');
    }
  }

  stop(): void {
    clearInterval(this.timer);
  }

  private async recheck(): Promise<void> {
    const viewers = new Map([...this.states.values()].flatMap((s) => (s.viewer ? [[s.viewer.apiKeyId, s.viewer] as const] : [])));
    if (viewers.size === 0) return;
    try {
      const roles = await validKeyRoles(this.services.orm.em.fork(), [...viewers.keys()]);
      const revoked = new Set([...viewers.keys()].filter((k) => !roles.has(k)));
      const changed = [...viewers.values()].filter((v) => roles.has(v.apiKeyId) && roles.get(v.apiKeyId) !== v.role);
      this.services.keyCache.forgetKeys(new Set([...revoked, ...changed.map((v) => v.apiKeyId)]));
      this.closeForKeys(revoked);
      this.applyRoles(roles);
    } catch (err) {
      this.services.log.warn({ err }, 'API key re-check failed');
    }
  }

  /**
   * A key whose role changed: its sockets' next operations and own subscriptions run with the new
   * role (their contexts read the socket's viewer); their shared subscriptions, shared by role, end
   * with ROLE_CHANGED, to be opened again as the new role.
   */
  private applyRoles(roles: Map<string, Role>): void {
    for (const [socket, state] of this.states) {
      const role = state.viewer && roles.get(state.viewer.apiKeyId);
      if (!state.viewer || !role || role === state.viewer.role) continue;
      state.viewer = { ...state.viewer, role };
      const error = new GraphQLError(`the API key's role changed to ${role}: subscribe again to receive events as ${role}`, {
        extensions: { code: 'ROLE_CHANGED' },
      });
      this.outboxes.get(socket)?.endStreams({ errors: [error] });
    }
  }
}
