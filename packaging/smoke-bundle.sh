#!/usr/bin/env bash
# Start a built bundle as a user would and fail loudly if it cannot: `--version` must print
# this checkout's version, `--smoke` must load the demo, render a frame offscreen and share
# it with one phone on 127.0.0.1, `rulesets check` must find and validate the shipped
# rulesets, and WEBP and JPEG maps must be drawn. Usage after `make bundle`:
#   packaging/smoke-bundle.sh [dist/battlemap]
set -euo pipefail
cd "$(dirname "$0")/.."
bundle=${1:-dist/battlemap}
program="$bundle/battlemap"
[ -x "$program" ] || { echo "smoke-bundle: no program at $program (run make bundle)" >&2; exit 1; }

expected="Battlemap $(sed -n 's/^__version__ = "\(.*\)"$/\1/p' battlemap/__init__.py)"
version=$("$program" --version)
if [ "$version" != "$expected" ]; then
  echo "smoke-bundle: --version printed '$version', expected '$expected'" >&2
  exit 1
fi
echo "smoke-bundle: --version ok ($version)"

# --smoke also shares on 127.0.0.1 and fetches the page and the first WebSocket message as a
# phone would (battlemap/ui/share/smoke.py): the share server must run inside the bundle.
smoke=$(QT_QPA_PLATFORM=offscreen "$program" --smoke)
echo "$smoke"
grep -q "^smoke: shared on 127.0.0.1:" <<<"$smoke" ||
  { echo "smoke-bundle: --smoke did not share with a phone" >&2; exit 1; }
"$program" rulesets check

# The bundled program must draw WEBP and JPEG maps (checked with the development venv).
QT_QPA_PLATFORM=offscreen "${PYTHON:-.venv/bin/python}" packaging/check_image_formats.py "$program"

# d20 reads d20/grammar.lark by path when first imported; without it dice rolling dies.
grammar="$bundle/_internal/d20/grammar.lark"
[ -f "$grammar" ] || { echo "smoke-bundle: $grammar missing from the bundle" >&2; exit 1; }
echo "smoke-bundle: ok"
