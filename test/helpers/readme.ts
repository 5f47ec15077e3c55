import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { projectRoot } from '../../src/db/paths';

export interface CodeBlock {
  lang: string;
  code: string;
}

/** The fenced code blocks between `<!-- name:start -->` and `<!-- name:end -->` of a Markdown file. */
export function markedBlocks(name: string, file = 'README.md'): CodeBlock[] {
  const text = readFileSync(join(projectRoot, file), 'utf8');
  const section = text.split(`<!-- ${name}:start -->`)[1]?.split(`<!-- ${name}:end -->`)[0];
  if (section === undefined) throw new Error(`${file} has no ${name} section`);
  return [...section.matchAll(/^```(\w+)\n([\s\S]*?)^```$/gm)].map((m) => ({ lang: m[1], code: m[2] }));
}
