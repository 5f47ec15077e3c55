/** The generated TypeScript module of the kernel (see build-kernel.mjs). */
export function compileKernel(): Promise<string>;
