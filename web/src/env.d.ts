/// <reference types="vite/client" />

// The module factory's declaration. A relative import inside an ambient module is not resolved
// (its types become any), so engine/worker.ts gives the factory's result its type itself.
declare module '*/generated/spillway.mjs' {
  import type { ModuleOptions, SpillwayModule } from '../../wasm/spillway';
  const createSpillway: (options?: ModuleOptions) => Promise<SpillwayModule>;
  export default createSpillway;
}
