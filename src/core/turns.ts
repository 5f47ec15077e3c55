/**
 * Turns on the event loop for long synchronous work, shared fairly by organizations. Work that
 * would hold the one event loop for long (completing a large answer, writing it as JSON, indexing
 * thousands of memory candidates) is cut into slices, and between two slices the request waits
 * here for its next turn. One turn is given per pass of the event loop (`setImmediate`), so
 * between two slices of anyone's work, whatever input is ready (another request's bytes, its rows
 * from PostgreSQL) is handled first; and the turns go round the waiting organizations, one turn
 * each, so an organization with several heavy requests gets one slice per round like one with
 * a single request, and a request of another organization that needs one turn gets it next.
 * Nothing is refused and nothing is dropped: every waiter gets its turn.
 */
export class Turns {
  /** waiters by organization */
  private readonly lines = new Map<string, (() => void)[]>();
  /** organizations with a waiter, in the order their turn comes */
  private readonly round: string[] = [];
  private scheduled = false;
  private readonly watchers = new Set<(key: string) => void>();
  /** turns given so far */
  given = 0;

  /** Resolves at `key`'s next turn: after every other organization waiting now has had one. */
  next(key: string): Promise<void> {
    return new Promise((resolve) => {
      let line = this.lines.get(key);
      if (!line) {
        this.lines.set(key, (line = []));
        this.round.push(key);
      }
      line.push(resolve);
      this.schedule();
    });
  }

  /** Calls `watch` with the organization of every turn given, until the returned function is called. */
  watch(watch: (key: string) => void): () => void {
    this.watchers.add(watch);
    return () => this.watchers.delete(watch);
  }

  /** waiters now, over every organization */
  waiting(): number {
    let n = 0;
    for (const line of this.lines.values()) n += line.length;
    return n;
  }

  private schedule(): void {
    if (this.scheduled) return;
    this.scheduled = true;
    setImmediate(this.give);
  }

  /** Gives one turn, to the organization at the head of the round, which goes to its back if it has more waiting. */
  private readonly give = (): void => {
    this.scheduled = false;
    const key = this.round.shift();
    if (key === undefined) return;
    const line = this.lines.get(key)!;
    const wake = line.shift()!;
    if (line.length > 0) this.round.push(key);
    else this.lines.delete(key);
    this.given += 1;
    if (this.round.length > 0) this.schedule();
    for (const w of this.watchers) w(key);
    wake();
  };
}

/** The process's turns: there is one event loop per process, so one scheduler of its turns. */
export const turns = new Turns();
