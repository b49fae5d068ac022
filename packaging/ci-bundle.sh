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
size_mib=$(du -s --apparent-size -B1M dist/battlemap | cut -f1)
echo "ci-bundle: built in $((SECONDS - started)) s, ${size_mib} MiB"
if [ "$size_mib" -gt 180 ]; then
  echo "ci-bundle: the bundle is ${size_mib} MiB, over the 180 MiB it may take" >&2
  exit 1
fi
packaging/smoke-bundle.sh dist/battlemap
