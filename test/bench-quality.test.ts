import { dirname, join } from 'node:path';
import type pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { measureQuality, qualityDataPath, recallReportsStrategy, recallStrategies, runQuality } from '../bench/quality';
import { bm25Rank, lexemes, parseConversations, qualityTable, RecallTally, type Conversation } from '../bench/quality-score';
import { renderTable } from '../bench/table';
import { projectRoot } from '../src/db/paths';
import { buildAppSchema } from '../src/graphql/build-schema';
import { sqlClient } from './helpers/db';
import { startTestServer, type TestServer } from './helpers/server';

// A made-up conversation in the evaluation file's shape (two sessions, a question per category,
// evidence written as the file writes it).
const SYNTHETIC = [
  {
    sample_id: 'synthetic-1',
    conversation: {
      speaker_a: 'Ada',
      speaker_b: 'Bo',
      session_1_date_time: '1:00 pm on 1 May, 2026',
      session_1: [
        { speaker: 'Ada', dia_id: 'D1:1', text: 'I adopted a grey cat named Pixel last week.' },
        { speaker: 'Bo', dia_id: 'D1:2', text: 'Lovely! My garden finally has tomatoes.' },
        { speaker: 'Ada', dia_id: 'D1:3', text: 'Pixel sleeps on my keyboard all day.' },
        { speaker: 'Bo', dia_id: 'D1:4', text: 'I am training for a marathon in October.' },
      ],
      session_2_date_time: '2:00 pm on 8 May, 2026',
      session_2: [
        { speaker: 'Ada', dia_id: 'D2:1', text: 'How is the marathon training going?' },
        { speaker: 'Bo', dia_id: 'D2:2', text: 'Running twenty miles a week now.' },
        { speaker: 'Ada', dia_id: 'D2:3', text: 'I started painting watercolour landscapes.' },
        { speaker: 'Bo', dia_id: 'D2:4', text: 'Send me a photo of the lake one.' },
        { speaker: 'Ada', dia_id: 'D2:5', text: 'My sister visits from Lisbon next month.' },
        { speaker: 'Bo', dia_id: 'D2:6', text: 'Tell her to bring pastries.' },
        { speaker: 'Ada', dia_id: 'D2:7', text: 'Pixel knocked a glass off the table.' },
        { speaker: 'Bo', dia_id: 'D2:8', text: 'Cats will be cats.' },
      ],
    },
    qa: [
      { question: 'I started painting watercolour landscapes.', answer: 'x', evidence: ['D2:3'], category: 4 },
      { question: 'What pet does Ada have?', answer: 'x', evidence: ['D1:1; D1:3', 'D9:9'], category: 1 },
      { question: 'When is the zebra xylophone?', answer: 'x', evidence: ['D1:4'], category: 2 },
      { question: 'Unanswerable', answer: 'x', evidence: ['D1:2'], category: 5 },
      { question: 'Evidence missing', answer: 'x', evidence: ['D7:1'], category: 3 },
    ],
  },
];

describe('retrieval-quality benchmark: scoring', () => {
  const [conv] = parseConversations(SYNTHETIC);

  it('reads turns session by session and keeps the questions of categories 1-4 with known evidence', () => {
    expect(conv.turns.map((t) => t.id)).toEqual(['D1:1', 'D1:2', 'D1:3', 'D1:4', ...Array.from({ length: 8 }, (_, i) => `D2:${i + 1}`)]);
    // category 5 is left out, so is a question whose evidence the conversation lacks; "a; b" is split, unknown ids dropped
    expect(conv.questions.map((q) => [q.category, q.evidence])).toEqual([
      [4, ['D2:3']],
      [1, ['D1:1', 'D1:3']],
      [2, ['D1:4']],
    ]);
  });

  it('ranks by BM25: more rare shared terms first, ties in document order, no shared term no rank', () => {
    const docs = [
      new Map([['cat', 1]]),
      new Map([['dog', 1]]),
      new Map([
        ['cat', 1],
        ['pixel', 1],
      ]),
      new Map([['cat', 1]]),
    ];
    expect(bm25Rank(docs, ['pixel', 'cat'])).toEqual([2, 0, 3]);
    expect(bm25Rank(docs, ['zebra'])).toEqual([]);
  });

  it('counts a hit at 5 and 10 when any evidence turn is there, and "all evidence" only when every one is', () => {
    const t = new RecallTally();
    const q = (category: number, evidence: string[]) => ({ question: '', category, evidence });
    const ranked = ['a', 'b', 'c', 'd', 'e', 'f', 'g', 'h', 'i', 'j', 'k'];
    t.add(q(1, ['f', 'z']), ranked, 3); // at 10 only, not all
    t.add(q(1, ['a', 'j']), ranked, 5); // at 5, all at 10
    t.add(q(2, ['k']), ranked, 4); // rank 11: a miss
    t.add(q(4, ['b']), ranked, 1);
    const s = t.score('X');
    expect(s).toMatchObject({ strategy: 'X', questions: 4, at5: 0.5, at10: 0.75, all10: 0.5, p50Ms: 3 });
    expect(s.byCategory['1']).toEqual({ questions: 2, at5: 0.5, at10: 1, all10: 0.5 });
    expect(s.byCategory['2']).toEqual({ questions: 1, at5: 0, at10: 0, all10: 0 });
    expect(s.byCategory['3']).toEqual({ questions: 0, at5: 0, at10: 0, all10: 0 });
    const table = qualityTable({
      data: '',
      conversations: 1,
      facts: 11,
      questions: 4,
      factText: '',
      batch: 50,
      factsWithoutEmbedding: 0,
      strategies: [s],
    });
    expect(table[2]).toBe('| X | 50.0 | 75.0 | 50.0 | 100.0 | 0.0 | 0.0 | 100.0 | 3.0 |');
  });

  it('renders the quality table of a results file, and says when a run has none', () => {
    const strategies = [{ ...new RecallTally().score('LEXICAL'), questions: 2, at5: 0.5, at10: 1, all10: 0.5 }];
    const read = (file: string) =>
      file === 'a.json'
        ? {
            args: { connections: 1 },
            scenarios: [],
            quality: { data: '', conversations: 1, facts: 2, questions: 2, factText: '', batch: 50, factsWithoutEmbedding: 0, strategies },
          }
        : { args: { connections: 1 }, scenarios: [], quality: 'skipped: no evaluation data' };
    expect(renderTable('kind=quality files=a.json', read).split('\n')[2]).toBe(
      '| LEXICAL | 50.0 | 100.0 | 50.0 | 0.0 | 0.0 | 0.0 | 0.0 | - |',
    );
    expect(renderTable('kind=quality files=b.json', read)).toBe('(b.json: no quality scores)');
  });
});

describe('retrieval-quality benchmark: the scenario', () => {
  let server: TestServer;
  let db: pg.Client;

  beforeAll(async () => {
    server = await startTestServer();
    db = await sqlClient(server.dbUrl);
  });
  afterAll(async () => {
    await db?.end();
    await server?.close();
  });

  it('reads the data beside the checkout unless QUALITY_DATA names a file', () => {
    expect(qualityDataPath({ QUALITY_DATA: '/somewhere/else.json' })).toBe('/somewhere/else.json');
    expect(qualityDataPath({})).toBe(join(dirname(projectRoot), 'shared', 'data', 'locomo-dev.json'));
  });

  it('is skipped, saying why, when the data file is absent (and starts no server)', async () => {
    const dataPath = join(projectRoot, 'no-such-folder', 'locomo-dev.json');
    const res = await runQuality({
      env: {},
      databaseUrl: 'postgresql://nobody@127.0.0.1:1/none',
      token: '',
      orgId: '',
      schema: buildAppSchema(),
      dataPath,
    });
    expect(res).toBe(
      `skipped: no evaluation data at ${dataPath} (it is evaluation-only and never copied into the repository; set QUALITY_DATA to its path)`,
    );
  });

  it('takes stems from PostgreSQL english text search', async () => {
    const [doc] = await lexemes(db, ['Ada: the cats were running']);
    expect([...doc.entries()]).toEqual(
      expect.arrayContaining([
        ['ada', 1],
        ['cat', 1],
        ['run', 1],
      ]),
    );
    expect(doc.has('the')).toBe(false);
  });

  it('writes each turn as a fact of its conversation bank and scores every strategy the schema offers', async () => {
    const { orgId, token } = await server.createOrg('quality');
    const schema = buildAppSchema();
    const strategies = recallStrategies(schema);
    const reportsStrategy = recallReportsStrategy(schema);
    const conversations: Conversation[] = parseConversations(SYNTHETIC);
    const res = await measureQuality({ url: server.url, token, db, orgId, conversations, strategies, reportsStrategy, embedWaitMs: 0 });
    expect(res).toMatchObject({ conversations: 1, facts: 12, questions: 3, factText: 'speaker: text' });
    const facts = await db.query(
      `SELECT text, external_id FROM facts WHERE org_id = $1 AND bank_id = 'quality-synthetic-1' ORDER BY external_id`,
      [orgId],
    );
    expect(facts.rows).toHaveLength(12);
    expect(facts.rows[0]).toEqual({ text: 'Ada: I adopted a grey cat named Pixel last week.', external_id: 'quality:synthetic-1:D1:1' });
    expect(res.strategies.map((s) => s.strategy)).toEqual(['BM25 (benchmark)', ...strategies.map((s) => s ?? 'default')]);
    // the benchmark's BM25: the question that repeats a turn finds it; one sharing no word with any turn finds nothing
    const bm25 = res.strategies[0];
    expect(bm25.byCategory['4'].at5).toBe(1);
    expect(bm25.byCategory['2']).toEqual({ questions: 1, at5: 0, at10: 0, all10: 0 });
    // the server's answers map back to turns: the question that repeats a turn's words finds that turn
    for (const s of res.strategies.slice(1)) {
      expect(s.questions).toBe(3);
      expect(s.byCategory['4'].at10).toBe(1);
      expect(s.p50Ms).toBeGreaterThan(0);
      // every question is counted under the strategy the server says ranked it (without embeddings HYBRID falls back)
      if (reportsStrategy) expect(Object.values(s.used ?? {}).reduce((a, n) => a + n, 0)).toBe(3);
    }
  });
});
