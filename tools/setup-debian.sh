#!/usr/bin/env bash
# Install the Debian packages the build and the tests need, if any is missing:
#   chromium-headless-shell  end-to-end tests of the site (Chromium's headless build)
#   nodejs              the site search's worker, run beside the Python search in the fast tests
#   fonts-wqy-microhei  the CJK font embedded in the printed FAQ
#   fonts-noto-color-emoji  the emoji font of the printed FAQ (ZWJ sequences drawn as one picture)
#   poppler-utils       pdftotext/pdffonts/pdftoppm: tests read the PDF back
#   zbar-tools          zbarimg: tests read the printed QR codes back
#   libharfbuzz-subset0 font subsetting for WeasyPrint
#   libpango-1.0-0 libpangoft2-1.0-0  WeasyPrint's text layout
#   nodejs, npm         npm ci installs axe-core (package.json), the accessibility checker of the tests
set -euo pipefail
packages=(chromium-headless-shell nodejs fonts-wqy-microhei fonts-noto-color-emoji poppler-utils zbar-tools libharfbuzz-subset0 libpango-1.0-0 libpangoft2-1.0-0)
missing=()
for pkg in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$pkg" 2>/dev/null | grep -q "install ok installed" || missing+=("$pkg")
done
# Node.js from Debian (or any other install that brings its own npm).
command -v node >/dev/null || missing+=(nodejs)
command -v npm >/dev/null || missing+=(npm)
[ ${#missing[@]} -eq 0 ] && exit 0
echo "installing Debian packages: ${missing[*]}"
if [ "$(id -u)" -eq 0 ]; then sudo=""; elif command -v sudo >/dev/null; then sudo="sudo"; else
  echo "error: need root (or sudo) to install: ${missing[*]}" >&2; exit 1
fi
export DEBIAN_FRONTEND=noninteractive
$sudo apt-get update -qq
$sudo apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
