/** A bank is clustered once it has this many slots (below, a whole scan costs little). */
export const CLUSTER_FROM = 4096;
/** At most this many clusters a bank: placing a fact compares it with every leader (by a quarter of the codes). */
const MAX_CLUSTERS = 1024;
/** A fact starts a cluster of its own when no leader's approximate cosine with it reaches this. */
const JOIN_COSINE = 0.9;
/**
 * Slack on an angle (radians): the angles are computed in 64-bit floats from cosines that carry
 * rounding of about 1e-13, and `acos` near 1 turns that into about 1e-7 radians.
 */
export const ANGLE_SLACK = 1e-6;
/** Members are grouped by their angle to the leader in bands this wide (radians, 2.5 degrees). */
const BAND = Math.PI / 72;
/** The band of members without an angle (a vector without a direction): any angle. */
const ANY_BAND = 72;

/** A member's band. */
const bandOf = (phi: number): number => (Number.isNaN(phi) ? ANY_BAND : Math.min(ANY_BAND - 1, Math.floor(phi / BAND)));

/** The range of angles of a band's members: [from, to] radians. */
export const bandRange = (band: number): [number, number] => (band === ANY_BAND ? [0, Math.PI] : [band * BAND, (band + 1) * BAND]);

/**
 * Leader clusters of a bank's vectors, for a first pass of recall that skips facts whose cosine
 * cannot reach the answer. Each cluster has a leader: the unit vector of the fact that started it,
 * kept here in 64-bit floats and never changed. A fact joins the cluster whose leader is nearest
 * by the 8-bit codes (or starts one, up to `MAX_CLUSTERS`), and its angle to the leader is
 * computed exactly from its own vector. Angles between unit vectors obey the triangle inequality,
 * so for a query at angle θ from a leader, a member at angle φ from it is at least |θ - φ| from
 * the query: its cosine is at most cos(|θ - φ|), for any data. Tight clusters make that bound
 * useful; loose ones only make it useless, never wrong. Which cluster a fact joins only changes
 * how useful the bound is.
 */
export class Clusters {
  /** per cluster: leader (unit vector), the slot whose codes are the leader's (-1 once that slot changed) */
  readonly leaders: Float64Array[] = [];
  readonly leaderSlot: number[] = [];
  /**
   * per cluster: its members' slots by band of their angle to the leader (`BAND`; a band of
   * members that may lie at any angle last), and the largest usefulness bound of any member
   */
  readonly bands: number[][][] = [];
  readonly useMax: number[] = [];
  /** per slot: its cluster (-1: none), its angle to the leader, its place in its band's list */
  clusterOf = new Int32Array(0);
  phi = new Float64Array(0);
  private place = new Int32Array(0);
  /** the leaders whose slots still hold them, for the kernel: their slots and clusters */
  private active = { slots: new Int32Array(0), clusters: new Int32Array(0), n: 0, stale: true };

  constructor(readonly dim: number) {}

  /** Room for `slots` slots. */
  grow(slots: number): void {
    if (slots <= this.clusterOf.length) return;
    const clusterOf = new Int32Array(slots).fill(-1);
    clusterOf.set(this.clusterOf);
    const phi = new Float64Array(slots);
    phi.set(this.phi);
    const place = new Int32Array(slots);
    place.set(this.place);
    [this.clusterOf, this.phi, this.place] = [clusterOf, phi, place];
  }

  /**
   * The leaders whose slots still hold them: their slots and clusters (for the kernel's
   * products with the query or with a new fact's codes).
   */
  activeLeaders(): { slots: Int32Array; clusters: Int32Array; n: number } {
    const a = this.active;
    if (!a.stale) return a;
    a.slots = new Int32Array(this.leaders.length);
    a.clusters = new Int32Array(this.leaders.length);
    a.n = 0;
    for (let c = 0; c < this.leaders.length; c++) {
      if (this.leaderSlot[c] < 0) continue;
      a.slots[a.n] = this.leaderSlot[c];
      a.clusters[a.n++] = c;
    }
    a.stale = false;
    return a;
  }

  /**
   * Places the fact in `slot` (its vector `v`, sum of squares `normSq`, usefulness bound `use`):
   * in `nearest` (a cluster whose leader's approximate cosine is `cosine`), or in a new cluster it
   * leads when that is below `JOIN_COSINE` and there is room. Any previous place is left first.
   */
  put(slot: number, v: ArrayLike<number>, normSq: number, use: number, nearest: number, cosine: number): void {
    this.leave(slot);
    // a vector without a direction (zero or not finite) has no angle: NaN, always visited
    const unit = normSq > 0 && Number.isFinite(normSq);
    let c = nearest;
    let phi = Number.NaN;
    if (unit && (c < 0 || (cosine < JOIN_COSINE && this.leaders.length < MAX_CLUSTERS))) {
      const inv = 1 / Math.sqrt(normSq);
      const leader = new Float64Array(this.dim);
      for (let j = 0; j < this.dim; j++) leader[j] = v[j] * inv;
      c = this.leaders.length;
      this.leaders.push(leader);
      this.leaderSlot.push(slot);
      this.bands.push([]);
      this.useMax.push(-Infinity);
      this.active.stale = true;
      phi = 0;
    } else if (unit) {
      const inv = 1 / Math.sqrt(normSq);
      const leader = this.leaders[c];
      let dot = 0;
      for (let j = 0; j < this.dim; j++) dot += v[j] * inv * leader[j];
      phi = Math.acos(Math.min(1, Math.max(-1, dot)));
    } else if (c < 0) {
      c = this.orphans();
    }
    this.clusterOf[slot] = c;
    this.phi[slot] = phi;
    const bands = this.bands[c];
    const b = bandOf(phi);
    while (bands.length <= b) bands.push([]);
    this.place[slot] = bands[b].length;
    bands[b].push(slot);
    // only rises (a member leaving keeps it an upper bound)
    this.useMax[c] = Math.max(this.useMax[c], use);
  }

  /** A cluster for vectors without a direction while there is no leader: its leader is never used (its members are in the band of any angle). */
  private orphans(): number {
    this.leaders.push(new Float64Array(this.dim));
    this.leaderSlot.push(-1);
    this.bands.push([]);
    this.useMax.push(-Infinity);
    return this.leaders.length - 1;
  }

  /** Takes the slot out of its cluster (a leader's cluster keeps its leader vector, no longer its slot). */
  leave(slot: number): void {
    if (slot >= this.clusterOf.length) return;
    const c = this.clusterOf[slot];
    if (c < 0) return;
    const list = this.bands[c][bandOf(this.phi[slot])];
    const at = this.place[slot];
    const last = list.pop()!;
    if (last !== slot) {
      list[at] = last;
      this.place[last] = at;
    }
    this.clusterOf[slot] = -1;
    if (this.leaderSlot[c] === slot) {
      this.leaderSlot[c] = -1;
      this.active.stale = true;
    }
  }

  /** JavaScript memory held, in bytes (leaders, per-slot arrays, member lists). */
  get bytes(): number {
    return this.leaders.length * (this.dim * 8 + 120) + this.clusterOf.length * 24;
  }
}
