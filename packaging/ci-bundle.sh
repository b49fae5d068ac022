#!/usr/bin/env bash
# CI step for the desktop bundle: build dist/battlemap with `make bundle`, report its build
# time and size, then start the built program (packaging/smoke-bundle.sh). Non-zero on failure.
set -euo pipefail
cd "$(dirname "$0")/.."

# X11 libraries that Qt's xcb platform plugin links. A desktop has them; a bare build machine
# may not, and PyInstaller then builds a bundle without them that cannot open an X11 window.
x11_libs=(libxcb-icccm4 libxcb-keysyms1 libxcb-cursor0 libxcb-shape0 libxcb-render-util0
  libxcb-image0 libxkbcommon-x11-0)
missing=()
for pkg in "${x11_libs[@]}"; do
  dpkg -s "$pkg" >/dev/null 2>&1 || missing+=("$pkg")
done
if [ ${#missing[@]} -gt 0 ]; then
  echo "ci-bundle: installing ${missing[*]}"
  apt-get update -qq
  DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "${missing[@]}"
fi

started=$SECONDS
make bundle
# The limit is 180 MB in decimal units (180,000,000 bytes), the stricter reading of "180 MB".
size_bytes=$(du -s --apparent-size -B1 dist/battlemap | cut -f1)
limit_bytes=180000000
echo "ci-bundle: built in $((SECONDS - started)) s, ${size_bytes} bytes ($((size_bytes / 1000000)) MB)"
if [ "$size_bytes" -gt "$limit_bytes" ]; then
  echo "ci-bundle: the bundle is ${size_bytes} bytes, over the ${limit_bytes} it may take" >&2
  exit 1
fi
packaging/smoke-bundle.sh dist/battlemap
