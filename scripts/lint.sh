#!/usr/bin/env bash
# `npm run lint`, and the first step of `npm test`: every check of the code's form, no build needed.
set -euo pipefail
cd "$(dirname "$0")/.."

echo "==> TypeScript and JavaScript: lint and format (Biome, biome.json; npx biome check --write fixes the format)"
npx biome check --error-on-warnings

echo "==> no function or closure over 120 lines in web/src (scripts/long-functions.mjs)"
node scripts/long-functions.mjs web/src
