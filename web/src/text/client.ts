// Typed promise API over the text worker (worker.ts).
import { WorkerClient } from '../lib/worker-rpc';
import type { EngineNames, Settings } from '../lib/settings';
import type { CaseRef, CaseView, DecodeResult } from '../lib/share';
import type { ErrorWhere, GraphInfo } from '../store';
import type { Place } from '../lib/locate';

export type TextRequest =
  | { method: 'inspect'; text: string; version: number }
  | { method: 'openFile'; file: Blob; names: EngineNames | null }
  | { method: 'encodeLink'; graph: string; settings: Settings; view?: CaseView; ref?: CaseRef }
  | { method: 'decodeLink'; hash: string; names: EngineNames | null }
  | { method: 'locate'; text: string; where: ErrorWhere };

export class TextClient extends WorkerClient<TextRequest> {
  constructor() {
    super(() => new Worker(new URL('./worker.ts', import.meta.url), { type: 'module' }));
  }

  /** What the graph text holds (for the editor's version `version`). */
  inspect(text: string, version: number): Promise<GraphInfo> {
    return this.call({ method: 'inspect', text, version });
  }

  /** A case file's case (checked), or null when the file holds a graph. The worker reads the
   * file itself: handing it over costs nothing, handing over its text would not. */
  openFile(file: Blob, names: EngineNames | null): Promise<DecodeResult | null> {
    return this.call({ method: 'openFile', file, names });
  }

  encodeLink(
    graph: string,
    settings: Settings,
    view?: CaseView,
    ref: CaseRef = null,
  ): Promise<{ fragment: string; graphChars: number; compacted: boolean; named: boolean }> {
    return this.call({ method: 'encodeLink', graph, settings, view, ref });
  }

  /** The case in a link's fragment (without '#'), checked against every limit; null if none. */
  decodeLink(hash: string, names: EngineNames | null): Promise<DecodeResult | null> {
    return this.call({ method: 'decodeLink', hash, names });
  }

  /** The text places an error's `where` names. */
  locate(text: string, where: ErrorWhere): Promise<Place[]> {
    return this.call({ method: 'locate', text, where });
  }
}
