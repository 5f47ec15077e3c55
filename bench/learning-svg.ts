// The learning curve as an SVG (written by the learning-curve scenario into docs/), and its table for
// docs/benchmarks.md (bench/table.ts, kind=learning). Pure functions of a result: the same result
// draws the same bytes.

/** Sequential requests of one kind: p50 latency, statements and server CPU per request. */
export interface Timing {
  p50: number;
  statementsPerRequest: number;
  cpuMsPerRequest: number;
}

export interface CurveResult {
  questions: number;
  rounds: number;
  usefulnessWeight: number;
  /** precision@1 of rounds 0..rounds */
  creditOn: number[];
  creditOff: number[];
  /** the first round with precision@1 >= 0.9 (credit on), null when none */
  roundsTo90: number | null;
  recallPlain: Timing;
  recallTraced: Timing;
  feedbackCreditOn: Timing;
  feedbackCreditOff: Timing;
}

const W = 560;
const H = 320;
const M = { left: 56, right: 150, top: 24, bottom: 48 };

export function curveSvg(r: CurveResult): string {
  const pw = W - M.left - M.right;
  const ph = H - M.top - M.bottom;
  const x = (round: number) => M.left + (round / r.rounds) * pw;
  const y = (p: number) => M.top + (1 - p) * ph;
  const line = (ps: number[], colour: string, dash: string) =>
    `<polyline fill="none" stroke="${colour}" stroke-width="2"${dash ? ` stroke-dasharray="${dash}"` : ''} points="${ps
      .map((p, i) => `${x(i).toFixed(1)},${y(p).toFixed(1)}`)
      .join(' ')}"/>` + ps.map((p, i) => `<circle cx="${x(i).toFixed(1)}" cy="${y(p).toFixed(1)}" r="3" fill="${colour}"/>`).join('');
  const grid = [0, 0.25, 0.5, 0.75, 0.9, 1]
    .map(
      (p) =>
        `<line x1="${M.left}" x2="${M.left + pw}" y1="${y(p).toFixed(1)}" y2="${y(p).toFixed(1)}" stroke="#ddd"${p === 0.9 ? ' stroke-dasharray="4 3"' : ''}/>` +
        `<text x="${M.left - 8}" y="${(y(p) + 4).toFixed(1)}" text-anchor="end" font-size="11">${p.toFixed(2)}</text>`,
    )
    .join('');
  const ticks = Array.from(
    { length: r.rounds + 1 },
    (_, i) => `<text x="${x(i).toFixed(1)}" y="${M.top + ph + 16}" text-anchor="middle" font-size="11">${i}</text>`,
  ).join('');
  return `<svg xmlns="http://www.w3.org/2000/svg" width="${W}" height="${H}" viewBox="0 0 ${W} ${H}" font-family="sans-serif">
<rect width="${W}" height="${H}" fill="#fff"/>
${grid}${ticks}
<text x="${M.left + pw / 2}" y="${H - 10}" text-anchor="middle" font-size="12">round (0: no feedback yet)</text>
<text x="14" y="${M.top + ph / 2}" text-anchor="middle" font-size="12" transform="rotate(-90 14 ${M.top + ph / 2})">precision@1</text>
${line(r.creditOn, '#1f77b4', '')}
${line(r.creditOff, '#d62728', '6 4')}
<text x="${M.left + pw + 12}" y="${M.top + 20}" font-size="12" fill="#1f77b4">credit on</text>
<text x="${M.left + pw + 12}" y="${M.top + 38}" font-size="12" fill="#d62728">credit off</text>
<text x="${M.left + pw + 12}" y="${M.top + 62}" font-size="11">${r.questions} questions</text>
</svg>
`;
}

const f = (n: number, d: number) => n.toFixed(d);

/** The curve and the costs as markdown tables. */
export function learningTable(r: CurveResult): string[] {
  const rounds = Array.from({ length: r.rounds + 1 }, (_, i) => i);
  return [
    `| precision@1, round | ${rounds.join(' | ')} | rounds to 0.9 |`,
    `|---|${rounds.map(() => '---:').join('|')}|---:|`,
    `| credit on | ${r.creditOn.map((p) => f(p, 2)).join(' | ')} | ${r.roundsTo90 ?? 'not reached'} |`,
    `| credit off | ${r.creditOff.map((p) => f(p, 2)).join(' | ')} | - |`,
    '',
    '| request (sequential) | p50 ms | SQL/req | CPU ms/req |',
    '|---|---:|---:|---:|',
    ...(
      [
        ['recall, no trace', r.recallPlain],
        ['recall with a trace', r.recallTraced],
        ['submitFeedback, 20 used + 20 served facts, credit on', r.feedbackCreditOn],
        ['submitFeedback, the same, credit off', r.feedbackCreditOff],
      ] as const
    ).map(([name, t]) => `| ${name} | ${f(t.p50, 1)} | ${f(t.statementsPerRequest, 1)} | ${f(t.cpuMsPerRequest, 2)} |`),
  ];
}
