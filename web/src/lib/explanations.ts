// What each policy and order source does, in words a student can follow. Shown next to the
// settings' selects and in the compare table's legend; the one place these texts live.

export const POLICY_TEXT: Record<string, string> = {
  best: 'Runs every policy below on the same order and keeps the plan that moves the least data (then the fewest spills).',
  lifetime:
    'Knows the whole order in advance. First decides who stays resident: when a node\u2019s buffers need room, it writes out the buffers whose next use is furthest away (COPY_IN buffers count double, since writing them out is free), keeps back any it didn\u2019t need, and reloads each just before its next use. Then it packs every resident stretch into the memory offline, largest first, into the smallest gap that is free for the stretch\u2019s whole life \u2014 so fragmentation can\u2019t force surprise spills. If packing fails it retries with a little less room where it failed, and falls back to seed.',
  window: 'Online like seed, but aware of fragmentation: when no hole is large enough, it looks at every contiguous stretch of memory long enough for the new buffer (holes and buffers the current node does not use) and writes out the one whose buffers cost least, each counted as the bytes its spill moves divided by how far away its next use is.',
  seed: 'The design document\u2019s online allocator, fixed: walks the order once, places each buffer by best fit when it is allocated, and when no hole is large enough spills the live buffer with the highest size \u00d7 distance-to-next-use \u00f7 cost (cost = size for a COPY_IN buffer, 2 \u00d7 size otherwise), reloading it just before its next use.',
};

export type OrderName = 'graph' | 'id' | 'schedule' | 'reuse' | 'best';

export const ORDER_TEXT: Record<OrderName, string> = {
  graph: 'The graph\u2019s own "Order".',
  id: 'Ascending node id (the contest files\u2019 order, which frees everything last).',
  schedule: 'Ascending id, but each FREE right after the buffer\u2019s last use and each ALLOC just before its first use.',
  reuse: 'A list scheduler that simulates each memory as a cache and runs next the work whose buffers are already resident, so that loaded tiles are used before they are written out.',
  best: 'Plans with both the memory-aware schedule and the reuse order, and keeps the order whose plan moves less data.',
};

export const ORDER_LABEL: Record<OrderName, string> = {
  graph: 'graph\u2019s Order',
  id: 'ascending id',
  schedule: 'memory-aware schedule',
  reuse: 'reuse-aware schedule',
  best: 'best of schedule and reuse',
};

export const policyText = (p: string) => POLICY_TEXT[p] ?? 'A policy of this engine build (no description in this page).';
export const orderLabel = (o: string) => ORDER_LABEL[o as OrderName] ?? o;
