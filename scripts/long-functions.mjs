// Lists every function or closure longer than a limit, counted from the line that opens it to the
// line of its closing brace (nested closures count in their parent too), longest first; exits 1
// when there is one.
//   node scripts/long-functions.mjs [--max N] [--all] [dir|file ...]
//     --max N   the limit (120)
//     --all     list every function, not only the long ones
//     default paths: web/src
// TypeScript and JavaScript are parsed by the parser Vite already installs (rolldown, oxc), so a
// brace in a string, a template or a regular expression is never taken for a block.
import fs from 'node:fs';
import path from 'node:path';
import { parseAst } from 'rolldown/parseAst';

const FUNCTION_TYPES = new Set(['FunctionDeclaration', 'FunctionExpression', 'ArrowFunctionExpression']);
const LANGS = { '.ts': 'ts', '.mts': 'ts', '.js': 'js', '.mjs': 'js' };

function parseArgs(argv) {
  const args = { max: 120, all: false, paths: [] };
  for (let i = 0; i < argv.length; i++) {
    if (argv[i] === '--max') args.max = Number(argv[++i]);
    else if (argv[i] === '--all') args.all = true;
    else args.paths.push(argv[i]);
  }
  if (!Number.isInteger(args.max) || args.max < 1) throw new Error('--max wants a positive whole number');
  if (args.paths.length === 0) args.paths.push('web/src');
  return args;
}

function sourceFiles(p) {
  if (fs.statSync(p).isFile()) return LANGS[path.extname(p)] ? [p] : [];
  return fs
    .readdirSync(p, { withFileTypes: true })
    .filter((e) => e.name !== 'generated' && e.name !== 'node_modules')
    .flatMap((e) => sourceFiles(path.join(p, e.name)));
}

/** The offsets at which each line starts, to turn an offset into a 1-based line number. */
function lineOf(text) {
  const starts = [0];
  for (let i = 0; i < text.length; i++) if (text.charCodeAt(i) === 10) starts.push(i + 1);
  return (offset) => {
    let lo = 0;
    let hi = starts.length - 1;
    while (lo < hi) {
      const mid = (lo + hi + 1) >> 1;
      if (starts[mid] <= offset) lo = mid;
      else hi = mid - 1;
    }
    return lo + 1;
  };
}

/** A function's name: its own, the variable, property or method it is assigned to, or '(anonymous)'. */
function nameOf(node, parent) {
  if (node.id?.name) return node.id.name;
  const key = parent?.id ?? parent?.key ?? parent?.left;
  return key?.name ?? key?.property?.name ?? '(anonymous)';
}

/** Every function in a parsed file, with the lines it spans. */
function functionsIn(file) {
  const text = fs.readFileSync(file, 'utf8');
  const line = lineOf(text);
  const found = [];
  const visit = (node, parent) => {
    if (!node || typeof node.type !== 'string') return;
    if (FUNCTION_TYPES.has(node.type)) {
      const from = line(parent?.type === 'MethodDefinition' || parent?.type === 'Property' ? parent.start : node.start);
      const to = line(node.end - 1);
      found.push({ file, name: nameOf(node, parent), from, to, lines: to - from + 1 });
    }
    for (const value of Object.values(node)) {
      if (Array.isArray(value)) for (const child of value) visit(child, node);
      else if (value && typeof value === 'object') visit(value, node);
    }
  };
  visit(parseAst(text, { lang: LANGS[path.extname(file)] }), null);
  return found;
}

const args = parseArgs(process.argv.slice(2));
const all = args.paths.flatMap(sourceFiles).flatMap(functionsIn);
const listed = all.filter((f) => args.all || f.lines > args.max).sort((a, b) => b.lines - a.lines);
for (const f of listed) console.log(`${f.lines}\t${f.file}:${f.from}-${f.to}\t${f.name}`);
const long = all.filter((f) => f.lines > args.max).length;
if (long > 0) {
  console.error(`${long} function(s) over ${args.max} lines`);
  process.exit(1);
}
