/// <reference types="vite/client" />

declare module '*/generated/spillway.mjs' {
  import type { ModuleOptions, SpillwayModule } from '../../wasm/spillway';
  const createSpillway: (options?: ModuleOptions) => Promise<SpillwayModule>;
  export default createSpillway;
}
