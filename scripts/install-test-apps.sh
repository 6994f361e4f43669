#!/usr/bin/env bash
# Installs the real third-party web apps the tests serve from 127.0.0.1 that come from Debian's packages:
# the Python 3.11 documentation (python3.11-doc) and the pdf.js viewer (libjs-pdf, pdf.js-common).
# The npm ones (Shoelace, ag-grid-community, swagger-ui-dist, CodeMirror, Monaco) are devDependencies.
set -euo pipefail
need=()
[ -f /usr/share/doc/python3.11/html/library/json.html ] || need+=(python3.11-doc)
[ -f /usr/share/javascript/pdf/web/viewer.html ] || need+=(libjs-pdf pdf.js-common)
if [ ${#need[@]} -eq 0 ]; then echo "install-test-apps: all present"; exit 0; fi
SUDO=""; [ "$(id -u)" -eq 0 ] || SUDO="sudo"
echo "install-test-apps: installing ${need[*]}"
$SUDO apt-get update -qq
DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq --no-install-recommends "${need[@]}"
