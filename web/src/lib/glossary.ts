// The words of the graph format and of the planner, explained once: the glossary panel, the
// editor's hover docs and its completion of field names and values all read this table.

export type TermKind = 'field' | 'op' | 'pipe' | 'memory' | 'idea';

export interface Term {
  term: string;
  kind: TermKind;
  text: string;
  /** for a field: where it appears */
  in?: 'graph' | 'node' | 'buffer node' | 'operation node';
}

export const KIND_LABEL: Record<TermKind, string> = {
  field: 'Fields of the graph file',
  op: 'Operations',
  pipe: 'Pipes',
  memory: 'Memories',
  idea: 'Ideas',
};

export const GLOSSARY: Term[] = [
  // fields
  {
    term: 'Nodes',
    kind: 'field',
    in: 'graph',
    text: 'The list of nodes: operations, and the ALLOC / FREE of each buffer.',
  },
  {
    term: 'Edges',
    kind: 'field',
    in: 'graph',
    text: 'Dependencies as [from, to] pairs of node ids: a node runs only after every node with an edge to it.',
  },
  {
    term: 'Order',
    kind: 'field',
    in: 'graph',
    text: 'Optional. The execution order to plan, one node id each; without it the page plans the better of its two schedules.',
  },
  {
    term: 'Capacities',
    kind: 'field',
    in: 'graph',
    text: 'Optional. Bytes per memory, like {"L1": 4096, "UB": 1024}; they become the capacity settings. Without them the defaults apply (L1 4096, UB 1024, L0A 256, L0B 256, L0C 512).',
  },
  {
    term: 'Id',
    kind: 'field',
    in: 'node',
    text: 'The node\u2019s id, unique in the graph; edges, Order and the new order name nodes by it.',
  },
  {
    term: 'Op',
    kind: 'field',
    in: 'node',
    text: 'What the node does: ALLOC or FREE of a buffer, or an operation (COPY_IN, MOVE, MATMUL, ADD, ...).',
  },
  {
    term: 'Pipe',
    kind: 'field',
    in: 'operation node',
    text: 'The hardware unit an operation runs on (MTE2, MTE1, CUBE, VECTOR, FIXP, MTE3). Each pipe runs its nodes one at a time; pipes run in parallel.',
  },
  { term: 'Cycles', kind: 'field', in: 'operation node', text: 'How long the operation takes on its pipe.' },
  {
    term: 'Bufs',
    kind: 'field',
    in: 'operation node',
    text: 'The buffers an operation reads or writes: all of them must be resident (in their memory) while it runs.',
  },
  {
    term: 'BufId',
    kind: 'field',
    in: 'buffer node',
    text: 'The buffer an ALLOC creates or a FREE releases. Each buffer has exactly one ALLOC and one FREE.',
  },
  {
    term: 'Size',
    kind: 'field',
    in: 'buffer node',
    text: 'The buffer\u2019s bytes; the same on its ALLOC and its FREE.',
  },
  {
    term: 'Type',
    kind: 'field',
    in: 'buffer node',
    text: 'The memory the buffer lives in (L1, UB, L0A, ...); it needs a capacity.',
  },
  // operations
  { term: 'ALLOC', kind: 'op', text: 'Creates a buffer: the planner gives it an offset in its memory here.' },
  { term: 'FREE', kind: 'op', text: 'Releases a buffer: its bytes return to the free space.' },
  {
    term: 'COPY_IN',
    kind: 'op',
    text: 'Loads a buffer from main memory. Main memory keeps that data, so writing the buffer out later moves nothing: only its reload costs.',
  },
  { term: 'COPY_OUT', kind: 'op', text: 'Stores a result to main memory.' },
  { term: 'MOVE', kind: 'op', text: 'Copies a tile between on-chip memories (L1 to L0A / L0B).' },
  {
    term: 'MATMUL',
    kind: 'op',
    text: 'Matrix multiply on the CUBE pipe, reading L0A and L0B tiles and accumulating into L0C.',
  },
  {
    term: 'SPILL_OUT',
    kind: 'op',
    text: 'Added by the planner: writes a buffer out to main memory to make room (pipe MTE3). Free for a COPY_IN buffer under the contest cost model.',
  },
  {
    term: 'SPILL_IN',
    kind: 'op',
    text: 'Added by the planner: reads a written-out buffer back just before its next use (pipe MTE2), at the offset it is given then.',
  },
  // pipes
  { term: 'MTE1', kind: 'pipe', text: 'Memory transfer engine 1: moves tiles from L1 to L0A / L0B.' },
  { term: 'MTE2', kind: 'pipe', text: 'Memory transfer engine 2: main memory to on-chip memory (COPY_IN, SPILL_IN).' },
  {
    term: 'MTE3',
    kind: 'pipe',
    text: 'Memory transfer engine 3: on-chip memory to main memory (COPY_OUT, SPILL_OUT).',
  },
  { term: 'CUBE', kind: 'pipe', text: 'The matrix unit (MATMUL).' },
  { term: 'VECTOR', kind: 'pipe', text: 'The vector unit (element-wise operations in UB).' },
  { term: 'FIXP', kind: 'pipe', text: 'The fix-pipe: moves results out of L0C (with format conversion).' },
  // memories
  { term: 'L1', kind: 'memory', text: 'The large on-chip buffer tiles are loaded into (default 4,096 bytes).' },
  { term: 'UB', kind: 'memory', text: 'The unified buffer of the vector unit (default 1,024 bytes).' },
  { term: 'L0A', kind: 'memory', text: 'The left input of the matrix unit (default 256 bytes).' },
  { term: 'L0B', kind: 'memory', text: 'The right input of the matrix unit (default 256 bytes).' },
  { term: 'L0C', kind: 'memory', text: 'The accumulator of the matrix unit (default 512 bytes).' },
  // ideas
  {
    term: 'step',
    kind: 'idea',
    text: 'A position in the new order: the input order with the spill nodes inserted. The page numbers every step this way and shows the input step beside it where it differs.',
  },
  {
    term: 'input step',
    kind: 'idea',
    text: 'A position in the order the planner was given (the graph\u2019s Order or a schedule), before spill nodes were inserted.',
  },
  {
    term: 'resident',
    kind: 'idea',
    text: 'In its memory: from its ALLOC (or SPILL_IN) through its FREE (or SPILL_OUT).',
  },
  {
    term: 'hole',
    kind: 'idea',
    text: 'A free range of a memory\u2019s bytes. A buffer needs one hole at least its size: free bytes in several holes do not help.',
  },
  {
    term: 'best fit',
    kind: 'idea',
    text: 'Placing a buffer in the smallest hole that holds it (policies seed and window), keeping large holes for large buffers.',
  },
  {
    term: 'fragmentation',
    kind: 'idea',
    text: 'Enough free bytes, but no hole large enough: the buffers left between them block it. Online placement cannot foresee it; offline packing (policy lifetime) can.',
  },
  {
    term: 'spill',
    kind: 'idea',
    text: 'A SPILL_OUT / SPILL_IN pair: a resident buffer leaves to make room and comes back before its next use.',
  },
  { term: 'victim', kind: 'idea', text: 'The buffer a spill writes out.' },
  {
    term: 'next use',
    kind: 'idea',
    text: 'The next step at which an operation uses a buffer. The further away, the longer a written-out buffer can stay out.',
  },
  {
    term: 'Belady',
    kind: 'idea',
    text: 'Belady\u2019s rule: write out what is used furthest in the future. Optimal when all buffers have the same size and cost; predict mode shows it as the choice in hindsight.',
  },
  {
    term: 'score',
    kind: 'idea',
    text: 'The seed\u2019s rule: size \u00d7 distance to next use \u00f7 cost, cost = size for a COPY_IN buffer (its data is in main memory) and 2 \u00d7 size otherwise; the highest is written out.',
  },
  {
    term: 'shortfall',
    kind: 'idea',
    text: 'The bytes missing when a buffer needs room: for seed and window its size minus the largest hole; for lifetime the bytes over the step\u2019s budget.',
  },
  {
    term: 'extra data moved',
    kind: 'idea',
    text: 'Bytes the spills move: a COPY_IN buffer\u2019s size per spill (only the reload), twice the size otherwise (write and reload).',
  },
  {
    term: 'demand peak',
    kind: 'idea',
    text: 'The most bytes an order needs in a memory at once if nothing were spilled: a property of the order, not of the plan.',
  },
  {
    term: 'policy',
    kind: 'idea',
    text: 'The planner\u2019s rule for placing buffers and choosing victims: seed, window, lifetime, or best (the one that moves the least data).',
  },
  {
    term: 'total cycles',
    kind: 'idea',
    text: 'When the plan\u2019s last node ends: each pipe runs its nodes one at a time in the new order, pipes run in parallel, and a node starts once its predecessors have ended, its pipe is free and the bytes it is placed on are left.',
  },
  {
    term: 'wait',
    kind: 'idea',
    text: 'Why a node starts when it does (the pipe timeline\u2019s strips, the order table\u2019s "Waited"): an edge, its pipe busy, or address reuse, with the node or buffer waited for and the cycles it cost.',
  },
  {
    term: 'edge wait',
    kind: 'idea',
    text: 'A node waits for its predecessor (an edge of the graph, or one the planner added around a spill) that ended last.',
  },
  {
    term: 'pipe busy',
    kind: 'idea',
    text: 'A node waits for the node before it on its pipe: a pipe runs one node at a time, in the new order.',
  },
  {
    term: 'address reuse',
    kind: 'idea',
    text: 'A buffer placed on bytes another buffer used waits until that one has left them (its FREE or SPILL_OUT, and every node using it there). The pipe timeline also colours a load that waited for such an ALLOC this way.',
  },
  {
    term: 'objective',
    kind: 'idea',
    text: 'What the plan minimises: bytes (the data moved, the default) or cycles (the total time, moving at most 10% more data than the bytes plan).',
  },
];

const byTerm = new Map(GLOSSARY.map((t) => [t.term, t]));
export const lookup = (word: string): Term | undefined => byTerm.get(word);

/** Field names of a node object, for completion. */
export const NODE_FIELDS = GLOSSARY.filter((t) => t.kind === 'field' && t.in !== 'graph');
export const GRAPH_FIELDS = GLOSSARY.filter((t) => t.kind === 'field' && t.in === 'graph');
/** Values the editor completes after "Op", "Pipe" and "Type". */
export const VALUES: Record<string, Term[]> = {
  Op: GLOSSARY.filter((t) => t.kind === 'op' && !t.term.startsWith('SPILL')),
  Pipe: GLOSSARY.filter((t) => t.kind === 'pipe'),
  Type: GLOSSARY.filter((t) => t.kind === 'memory'),
};
