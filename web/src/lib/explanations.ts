// What each policy does, in words a student can follow, shown next to the settings' select and in
// the compare table's legend (the engine's policies() gives the names only). The order sources'
// titles and descriptions come from the engine's registry, orders().
import type { OrderSourceInfo } from '../engine/types';

export const POLICY_TEXT: Record<string, string> = {
  best: 'Runs every policy below but the textbook ones (belady, lru, fifo) on the same order and keeps the plan that moves the least data (then the fewest spills).',
  lifetime:
    'Knows the whole order in advance. First decides who stays resident: when a node\u2019s buffers need room, it writes out the buffers whose next use is furthest away (COPY_IN buffers count double, since writing them out is free), keeps back any it didn\u2019t need, and reloads each just before its next use. Then it packs every resident stretch into the memory offline, largest first, into the smallest gap that is free for the stretch\u2019s whole life \u2014 so fragmentation can\u2019t force surprise spills. If packing fails it retries with a little less room where it failed, and falls back to seed.',
  window:
    'Online like seed, but aware of fragmentation: when no hole is large enough, it looks at every contiguous stretch of memory long enough for the new buffer (holes and buffers the current node does not use) and writes out the one whose buffers cost least, each counted as the bytes its spill moves divided by how far away its next use is.',
  residency:
    'Knows the whole order in advance and first finds the residency that moves the least data for it: which buffers stay in each memory between their uses, under every memory\u2019s capacity at every step (exactly on small problems; otherwise greedy choices improved by swaps). A buffer it does not keep is written out right after a use and read back just before the next. Then it packs the kept stretches like lifetime; when packing fails, it solves again with a little less room only where the packing failed.',
  belady:
    'The textbook rule (Belady\u2019s MIN): when a value needs room, write out the one whose next use is furthest away, clean or dirty alike. With values of one size that are all clean no rule reloads less; sizes or dirty values break that (residency does not).',
  lru: 'The textbook rule Least Recently Used: when a value needs room, write out the one least recently loaded, used or reloaded \u2014 the past standing in for the future.',
  fifo: 'The textbook rule First In, First Out: when a value needs room, write out the one placed (loaded or reloaded) earliest, however often it was used since. More registers can mean more reloads (Belady\u2019s anomaly).',
  seed: 'The design document\u2019s online allocator, fixed: walks the order once, places each buffer by best fit when it is allocated, and when no hole is large enough spills the live buffer with the highest size \u00d7 distance-to-next-use \u00f7 cost (cost = size for a COPY_IN buffer, 2 \u00d7 size otherwise), reloading it just before its next use.',
};

export const policyText = (p: string) =>
  POLICY_TEXT[p] ?? 'A policy of this engine build (no description in this page).';
/** An order source's title in the engine's registry (orders()); its name when the registry does
 * not list it (an order file's "given"). */
export const orderTitle = (orders: readonly OrderSourceInfo[] | undefined, name: string) =>
  orders?.find((o) => o.name === name)?.title ?? name;
/** An order source's description in the engine's registry, or "". */
export const orderText = (orders: readonly OrderSourceInfo[] | undefined, name: string) =>
  orders?.find((o) => o.name === name)?.description ?? '';
