// Compiles src/modules/facts/vectors/dot-kernel.wat into dot-kernel.wasm.ts (checked in; a test
// fails when the two drift). Usage: npm run kernel:build
import { readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import wabtInit from 'wabt';

const dir = join(dirname(fileURLToPath(import.meta.url)), '..', 'src', 'modules', 'facts', 'vectors');

export async function compileKernel() {
  const wabt = await wabtInit();
  const module = wabt.parseWat('dot-kernel.wat', readFileSync(join(dir, 'dot-kernel.wat'), 'utf8'), { simd: true });
  const { buffer } = module.toBinary({});
  module.destroy();
  return `// Generated from dot-kernel.wat by \`npm run kernel:build\`; do not edit.\nexport const DOT_KERNEL_WASM = '${Buffer.from(buffer).toString('base64')}';\n`;
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  writeFileSync(join(dir, 'dot-kernel.wasm.ts'), await compileKernel());
  process.stdout.write('wrote src/modules/facts/vectors/dot-kernel.wasm.ts\n');
}
