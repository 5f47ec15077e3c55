import { type ChildProcessWithoutNullStreams, spawn, spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { projectRoot } from '../src/db/paths';
import { markedBlocks } from './helpers/readme';
import { startTestServer, type TestServer } from './helpers/server';

// The README's quickstart is run as written: its shell blocks in one bash, its Node script as a
// process of its own, against a real server. Only the address and the token are put in.

/** One bash that runs blocks one after another, keeping its variables and functions between them. */
function shell(env: NodeJS.ProcessEnv) {
  const bash = spawn('bash', ['--norc', '--noprofile'], { env, cwd: projectRoot });
  let out = '';
  let err = '';
  bash.stdout.on('data', (d) => (out += d));
  bash.stderr.on('data', (d) => (err += d));
  let step = 0;
  return {
    run(code: string): Promise<string> {
      const mark = `__step_${++step}_done__`;
      const start = out.length;
      bash.stdin.write(`${code}\necho ${mark}\n`);
      return new Promise((resolve, reject) => {
        const timer = setTimeout(() => reject(new Error(`step ${step} did not finish; stderr: ${err}`)), 30_000);
        const check = () => {
          const at = out.indexOf(mark, start);
          if (at < 0) return;
          clearTimeout(timer);
          bash.stdout.off('data', check);
          resolve(out.slice(start, at));
        };
        bash.stdout.on('data', check);
        check();
      });
    },
    stderr: () => err,
    close: () => bash.stdin.end(),
  };
}

const answers = (output: string) =>
  output
    .split('\n')
    .filter((l) => l.startsWith('{'))
    .map((l) => JSON.parse(l) as { data?: Record<string, unknown> | null; errors?: unknown[] });

let s: TestServer;
let token: string;
let dir: string;
const children: ChildProcessWithoutNullStreams[] = [];

beforeAll(async () => {
  // the reader runs these blocks with bash and curl; so does this test
  for (const tool of ['bash', 'curl']) {
    if (spawnSync(tool, ['--version']).error) throw new Error(`the README's quickstart needs ${tool} on the PATH`);
  }
  // as `npm start` runs it: the server embeds facts and questions itself (one worker is enough here)
  s = await startTestServer({ env: { EMBEDDINGS_PROVIDER: 'local', EMBEDDINGS_WORKERS: '1' } });
  ({ token } = await s.createOrg('default'));
  dir = mkdtempSync(join(tmpdir(), 'quickstart-'));
});
afterAll(async () => {
  for (const c of children) c.kill();
  rmSync(dir, { recursive: true, force: true });
  await s?.close();
});

/** The block as the reader would run it against this server: its address, and the token in place of `ml_...`. */
const localize = (code: string) => {
  const host = new URL(s.url).host;
  return code.replaceAll('localhost:4000', host).replace(/^(export )?TOKEN=ml_\.\.\..*$/m, `$1TOKEN=${token}`);
};

const openSubscriptions = async () => {
  const text = await (await fetch(s.url.replace('/graphql', '/metrics'))).text();
  return Number(/^graphql_subscriptions_open (\d+)/m.exec(text)?.[1] ?? 0);
};

describe('README', () => {
  it('the first query answers with the viewer of the printed token', async () => {
    const [block] = markedBlocks('first-query');
    expect(block.code).toMatch(/^TOKEN=ml_\.\.\./m);
    const sh = shell(process.env);
    try {
      const [viewer] = answers(await sh.run(localize(block.code)));
      expect(viewer).toEqual({ data: { viewer: expect.objectContaining({ orgName: 'default', role: 'ADMIN' }) } });
    } finally {
      sh.close();
    }
  });

  it('the quickstart runs the core loop: episode, canvas, live feedback, correction and few-shot examples, facts and boosted recall, memory context, traced recall and its credit', async () => {
    const blocks = markedBlocks('quickstart');
    expect(blocks[0].code).toMatch(/^TOKEN=ml_\.\.\./m);
    const sh = shell(process.env);
    const byOperation: Record<string, unknown> = {};
    let feed = '';
    try {
      for (const block of blocks) {
        if (block.lang === 'js') {
          // the subscriber, started as the reader starts it in a second terminal
          const file = join(dir, 'feedback-feed.js');
          writeFileSync(file, localize(block.code));
          const child = spawn(process.execPath, [file], {
            env: { ...process.env, TOKEN: token, NODE_PATH: join(projectRoot, 'node_modules') },
          });
          children.push(child);
          child.stdout.on('data', (d) => (feed += d));
          const deadline = Date.now() + 10_000;
          while ((await openSubscriptions()) < 1 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 50));
          await new Promise((r) => setTimeout(r, 300));
          continue;
        }
        expect(block.lang).toBe('bash');
        for (const a of answers(await sh.run(localize(block.code)))) {
          expect(a.errors, JSON.stringify(a.errors)).toBeUndefined();
          Object.assign(byOperation, a.data);
        }
      }
    } finally {
      sh.close();
    }
    expect(sh.stderr()).toBe('');

    const episode = byOperation.recordEpisode as { id: string; segments: unknown[] };
    expect(episode.segments).toHaveLength(2);
    expect(byOperation.recordCanvasAction).toMatchObject({ episodeId: episode.id, action: 'PRESENT' });
    expect(byOperation.submitFeedback).toMatchObject({
      feedback: { score: 1 },
      episode: { feedbackCount: 1, aggregateFeedbackScore: 1, canvasActionCount: 1 },
    });

    const deadline = Date.now() + 10_000;
    while (!feed.includes('\n') && Date.now() < deadline) await new Promise((r) => setTimeout(r, 50));
    expect(JSON.parse(feed.split('\n')[0])).toEqual({
      feedbackAdded: {
        feedback: { feedbackType: 'RATING', rating: 5, score: 1 },
        episode: { title: 'Adding fractions', feedbackCount: 1, aggregateFeedbackScore: 1 },
      },
    });

    const fingerprint = (byOperation.recordDocumentLayout as { fingerprint: string }).fingerprint;
    expect(byOperation.recordCorrection).toMatchObject({ layoutFingerprint: fingerprint });
    const fewShot = byOperation.fewShotExamples as { examples: { inputSnippet: string; output: unknown }[] };
    expect(fewShot.examples).toEqual([{ inputSnippet: 'TOTAL DUE 1,250.00 USD', output: { total: '1,250.00' } }]);

    expect(byOperation.submitSignals).toEqual([expect.objectContaining({ externalId: 'lcd', signalCount: 1 })]);
    const recall = byOperation.recall as {
      fact: { externalId: string };
      strategyUsed: string;
      semanticScore: number | null;
      usefulnessSource: string;
      finalScore: number;
    }[];
    expect(recall.map((r) => r.fact.externalId)).toEqual(['lcd', 'cross']);
    // no client vector anywhere: the server embedded the facts and the question, and fused meaning with words
    expect(recall.map((r) => r.strategyUsed)).toEqual(['HYBRID', 'HYBRID']);
    for (const r of recall) expect(r.semanticScore).toBeGreaterThan(0.3);
    expect(recall[0].usefulnessSource).toBe('QUERY_CONTEXT');
    expect(recall[0].finalScore).toBeGreaterThan(recall[1].finalScore);

    expect(byOperation.memoryContext).toMatchObject({ policy: 'FOVEATED', memoriesSelected: 2 });

    // the loop closes: the traced recall, the usage report and the verdict credited the facts
    const next = (byOperation.nextEpisode as { id: string }).id;
    const traced = byOperation.tracedRecall as { fact: { id: string; externalId: string } }[];
    expect(traced.map((r) => r.fact.externalId)).toEqual(['lcd', 'cross']);
    const [trace] = (
      byOperation.episode as { memoryTrace: { operation: string; seq: number; items: { factId: string; used: boolean }[] }[] }
    ).memoryTrace;
    expect(trace).toMatchObject({ operation: 'RECALL', seq: 1 });
    expect(trace.items.map((i) => [i.factId, i.used])).toEqual([
      [traced[0].fact.id, true],
      [traced[1].fact.id, false],
    ]);
    type Signal = { signalType: string; source: string | null; episodeId: string | null };
    const facts = (byOperation.facts as { edges: { node: { externalId: string; signals: Signal[] } }[] }).edges.map((e) => e.node);
    const signals = (id: string) => facts.find((f) => f.externalId === id)!.signals.map((x) => [x.signalType, x.source, x.episodeId]);
    expect(signals('lcd')).toEqual([
      ['HELPFUL', 'VERDICT', next],
      ['USED', 'USAGE', next],
      ['HELPFUL', null, null],
    ]);
    expect(signals('cross')).toEqual([['IGNORED', 'VERDICT', next]]);
  });
});
