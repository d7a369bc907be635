// Every relative link in README.md and docs/*.md leads somewhere: the file exists and, for a
// link with #anchor into a Markdown file, a heading there has that anchor (GitHub's slugs).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, readFileSync, readdirSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '../..');

// The text outside fenced code blocks and inline code, where Markdown makes no links or headings.
function proseLines(text) {
  const lines = [];
  let fenced = false;
  for (const line of text.split('\n')) {
    if (/^\s*(```|~~~)/.test(line)) { fenced = !fenced; continue; }
    lines.push(fenced ? '' : line.replace(/`[^`]*`/g, (code) => ' '.repeat(code.length)));
  }
  return lines;
}

// GitHub's anchor of a heading: lower case, punctuation dropped (letters, digits, spaces, `-`
// and `_` kept), spaces as `-`; a repeated heading gets -1, -2, ...
function anchorsOf(text) {
  const seen = new Map();
  const anchors = new Set();
  let fenced = false;
  for (const line of text.split('\n')) {
    if (/^\s*(```|~~~)/.test(line)) { fenced = !fenced; continue; }
    const heading = !fenced && /^#{1,6}\s+(.*?)\s*#*\s*$/.exec(line);
    if (!heading) continue;
    const slug = heading[1].toLowerCase().replace(/[^\p{L}\p{N} _-]/gu, '').replace(/ /g, '-');
    const count = seen.get(slug) ?? 0;
    seen.set(slug, count + 1);
    anchors.add(count === 0 ? slug : `${slug}-${count}`);
  }
  return anchors;
}

// The broken relative links of one Markdown file, as "line N: target (why)".
export function brokenLinks(file, text, read = (p) => readFileSync(p, 'utf8'), exists = existsSync) {
  const broken = [];
  proseLines(text).forEach((line, i) => {
    for (const m of line.matchAll(/!?\[[^\]]*\]\(\s*<?([^)\s>]+)>?(?:\s+"[^"]*")?\s*\)/g)) {
      const target = m[1];
      if (/^[a-z][a-z0-9+.-]*:/i.test(target)) continue; // https:, mailto: ...
      const [path, anchor] = target.split('#');
      const to = path === '' ? file : resolve(dirname(file), decodeURIComponent(path));
      if (!exists(to)) { broken.push(`line ${i + 1}: ${target} (no such file)`); continue; }
      if (anchor === undefined || !to.endsWith('.md')) continue;
      if (!anchorsOf(read(to)).has(decodeURIComponent(anchor)))
        broken.push(`line ${i + 1}: ${target} (no heading #${anchor} in ${relative(root, to)})`);
    }
  });
  return broken;
}

const docs = ['README.md', ...readdirSync(join(root, 'docs')).filter((f) => f.endsWith('.md')).map((f) => `docs/${f}`)];

for (const name of docs) {
  test(`${name}: every relative link and anchor resolves`, () => {
    const file = join(root, name);
    assert.deepEqual(brokenLinks(file, readFileSync(file, 'utf8')), []);
  });
}

test('the checker reports a missing file, a missing anchor, and skips code and web links', () => {
  const files = {
    [join(root, 'docs/a.md')]: '# Title\n## The `edge` rule (below)\n## Twice\n## Twice\n',
  };
  const read = (p) => files[p];
  const exists = (p) => p in files;
  const text = [
    '[ok](a.md) [ok](a.md#title) [ok](a.md#the-edge-rule-below) [ok](a.md#twice-1) [ok](#title)',
    '[gone](b.md) [no anchor](a.md#nowhere) [web](https://example.com/x.md)',
    '`[in code](c.md)`',
    '```',
    '[in a fence](d.md)',
    '```',
  ].join('\n');
  const self = join(root, 'docs/a.md');
  assert.deepEqual(brokenLinks(self, text, read, exists), [
    'line 2: b.md (no such file)',
    'line 2: a.md#nowhere (no heading #nowhere in docs/a.md)',
  ]);
});
