// The embed flag of a link (web/src/lib/embed.ts): read apart from the link, which goes on unchanged.
import test from 'node:test';
import assert from 'node:assert/strict';
import { splitEmbed } from '../../build/web-lib/embed.js';
import { decodeCaseFragment, encodeCase } from '../../build/web-lib/share.js';
import { defaultSettings } from '../../build/web-lib/settings.js';

const NAMES = { policies: ['best', 'seed'], orders: ['graph', 'best'] };

test('"&embed" after a case link asks for the embed view and leaves the link as it was', () => {
  const graph = '{"Nodes": [{"Id": 0, "Op": "ALLOC", "BufId": 0, "Size": 8, "Type": "L1"}], "Edges": []}';
  const { fragment } = encodeCase(graph, defaultSettings(), { step: 3, spill: null, lesson: null });
  assert.doesNotMatch(fragment, /&/, 'a case payload has no "&" of its own (lz-string URI alphabet)');
  const split = splitEmbed(`${fragment}&embed`);
  assert.deepEqual(split, { fragment, embed: true });
  const decoded = decodeCaseFragment(split.fragment, NAMES);
  assert.equal(decoded.ok, true);
  assert.equal(decoded.case.view.step, 3);
});

test('without the flag, or with a look-alike, nothing changes', () => {
  assert.deepEqual(splitEmbed('case=abc'), { fragment: 'case=abc', embed: false });
  assert.deepEqual(splitEmbed('case=abc&embedded'), { fragment: 'case=abc&embedded', embed: false });
  assert.deepEqual(splitEmbed(''), { fragment: '', embed: false });
  assert.deepEqual(splitEmbed('embed'), { fragment: '', embed: true });
  assert.deepEqual(splitEmbed('example=one-spill&embed&step=4'), { fragment: 'example=one-spill&step=4', embed: true });
});
