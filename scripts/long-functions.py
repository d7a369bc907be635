#!/usr/bin/env python3
"""Lists the functions and closures longer than a limit in C++ sources (brace counting).

    python3 scripts/long-functions.py [--max N] [PATH ...]     (default: 120 lines; core cli wasm)

A function counts from the line its header starts on to the line of its closing brace; a lambda
from the line of its capture list. Comments, string and character literals (raw strings too) are
blanked first, so braces in them do not count. Exits 1 when any function is longer than --max.
"""
import argparse
import bisect
import os
import re
import sys

CONTROL = {"if", "for", "while", "switch", "catch", "return", "sizeof", "alignof", "decltype", "noexcept"}
QUALIFIERS = re.compile(r"(?:\s*(?:const|noexcept(?:\([^()]*\))?|override|final|mutable|constexpr|&&|&|->\s*[\w:<>,\s*&]+?))*\s*$")


def blank_literals(text):
    """The text with comments and literals replaced by spaces (newlines kept)."""
    out = []
    i, n = 0, len(text)
    while i < n:
        c = text[i]
        if text.startswith("//", i):
            j = text.find("\n", i)
            j = n if j < 0 else j
            out.append(" " * (j - i))
            i = j
        elif text.startswith("/*", i):
            j = text.find("*/", i + 2)
            j = n if j < 0 else j + 2
            out.append(re.sub(r"[^\n]", " ", text[i:j]))
            i = j
        elif c == "R" and text.startswith('R"', i) and (i == 0 or not (text[i - 1].isalnum() or text[i - 1] == "_")):
            m = re.match(r'R"([^()\\ ]{0,16})\(', text[i:])
            if not m:
                out.append(c)
                i += 1
                continue
            end = text.find(")" + m.group(1) + '"', i + m.end())
            end = n if end < 0 else end + len(m.group(1)) + 2
            out.append(re.sub(r"[^\n]", " ", text[i:end]))
            i = end
        elif c in "\"'":
            if c == "'" and i > 0 and text[i - 1].isalnum():  # a digit separator: 1'000
                out.append(" ")
                i += 1
                continue
            j = i + 1
            while j < n and text[j] != c and text[j] != "\n":
                j += 2 if text[j] == "\\" else 1
            out.append(" " * (min(j + 1, n) - i))
            i = j + 1
        else:
            out.append(c)
            i += 1
    return "".join(out)


def matching_open(code, close):
    """The index of the '(' or '[' that the bracket at `close` closes."""
    pairs = {")": "(", "]": "["}
    want, depth = pairs[code[close]], 0
    for k in range(close, max(-1, close - 20000), -1):
        if code[k] in ")]":
            depth += 1
        elif code[k] in "([":
            depth -= 1
            if depth == 0:
                return k if code[k] == want else -1
    return -1


def opener_kind(code, brace):
    """'function', 'lambda' or None for the '{' at `brace`, and where its header starts."""
    head = code[:brace]
    m = QUALIFIERS.search(head, max(0, brace - 200))
    end = m.start() if m else len(head)
    while end > 0 and head[end - 1].isspace():
        end -= 1
    if end == 0:
        return None, 0
    last = head[end - 1]
    if last == "]":
        return "lambda", matching_open(code, end - 1)
    if last != ")":
        return None, 0
    open_paren = matching_open(code, end - 1)
    if open_paren < 0:
        return None, 0
    before = head[:open_paren].rstrip()
    if before.endswith("]"):
        return "lambda", matching_open(code, len(before) - 1)
    word = re.search(r"([A-Za-z_~][\w:~]*|operator\s*\S+)\s*$", before)
    if not word or word.group(1) in CONTROL:
        return None, 0
    # A constructor's initializer list: the header starts before the ':'.
    start = max(head.rfind(";", 0, open_paren), head.rfind("}", 0, open_paren), head.rfind("{", 0, open_paren)) + 1
    while start < len(head) and head[start].isspace():
        start += 1
    return "function", start


def functions(path):
    with open(path, encoding="utf-8", errors="replace") as f:
        code = blank_literals(f.read())
    line_starts = [i for i, c in enumerate(code) if c == "\n"]
    line_of = lambda index: bisect.bisect_left(line_starts, index) + 1
    stack, found = [], []
    for i, c in enumerate(code):
        if c == "{":
            kind, start = opener_kind(code, i)
            stack.append((kind, start))
        elif c == "}" and stack:
            kind, start = stack.pop()
            if kind:
                first, last = line_of(start), line_of(i)
                name = re.sub(r"\s+", " ", code[start:code.find("(", start) if kind == "function" else start + 12]).strip()
                found.append((last - first + 1, path, first, kind, name[-60:]))
    return found


def sources(paths):
    for p in paths:
        if os.path.isfile(p):
            yield p
        for root, _, names in os.walk(p):
            for name in sorted(names):
                if name.endswith((".cpp", ".h", ".hpp", ".cc")):
                    yield os.path.join(root, name)


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--max", type=int, default=120)
    parser.add_argument("--top", type=int, default=0, help="also list the N longest")
    parser.add_argument("paths", nargs="*", default=["core", "cli", "wasm"])
    args = parser.parse_args()
    found = sorted((f for p in sources(args.paths) for f in functions(p)), reverse=True)
    for lines, path, first, kind, name in found[: args.top]:
        print(f"{lines:5d}  {path}:{first}  {kind} {name}")
    over = [f for f in found if f[0] > args.max]
    for lines, path, first, kind, name in over:
        print(f"{path}:{first}: {kind} {name} is {lines} lines (limit {args.max})", file=sys.stderr)
    return 1 if over else 0


if __name__ == "__main__":
    sys.exit(main())
