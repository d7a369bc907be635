// The page's stated limits (README "Playground limits"). Anything over one is refused with a
// message naming the limit, before it can freeze the page or reach storage.
export const LIMITS = {
  /** Characters after "#case=" in a link. */
  linkChars: 1_000_000,
  /** Characters of a link's case once decompressed (graph text + settings). */
  caseChars: 8_000_000,
  /** Memories (capacity rows) in the settings or in a graph's "Capacities". */
  capacityRows: 64,
  /** Characters of a memory name. */
  memoryNameChars: 64,
  /** Bytes of one capacity (the engine's limit, 2^36). */
  capacityBytes: 2 ** 36,
  /** The seed cost model's parameters (the engine's ranges). */
  fixedLatency: 2 ** 32,
  cyclesPerByte: 2 ** 20,
  /** The order search's effort in evaluations (the engine's limit). */
  effort: 100_000_000,
  /** The cycles objective's data margin, percent (the engine's limit). */
  margin: 1_000,
  /** Characters of a question's text in a link (v7). */
  questionChars: 1_000,
  /** Choices a question in a link offers. */
  questionChoices: 64,
  /** Node ids in an order file. */
  orderIds: 2_000_000,
  /** Above this many nodes the engine keeps brief decisions: what it did, not why (its
   * kHugeGraphNodes, core/include/spillway/scale.h). Not a refusal; the page says so. */
  hugeGraphNodes: 100_000,
} as const;

export const fmtLimit = (n: number) => n.toLocaleString('en-US');

/** A lesson's id (lessons/*.json, a link's view): lower-case letters, digits and dashes. */
export const LESSON_ID = /^[a-z0-9-]{1,40}$/;
