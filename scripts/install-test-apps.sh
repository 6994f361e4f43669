#!/usr/bin/env bash
# Installs the real third-party web apps the tests serve from 127.0.0.1 that come from Debian's packages:
# the Python 3.11 documentation (python3.11-doc) and the pdf.js viewer (libjs-pdf, pdf.js-common).
# The npm ones (Shoelace, ag-grid-community, swagger-ui-dist, CodeMirror, Monaco) are devDependencies.
# Java 17 (openjdk-17-jre-headless) runs the Selenium Grid 4 of test/slow/grid.test.mjs; the Selenium Server jar comes
# with the devDependency @nightwatch/selenium-server.
set -euo pipefail
need=()
[ -f /usr/share/doc/python3.11/html/library/json.html ] || need+=(python3.11-doc)
[ -f /usr/share/javascript/pdf/web/viewer.html ] || need+=(libjs-pdf pdf.js-common)
command -v java >/dev/null 2>&1 || need+=(openjdk-17-jre-headless)
if [ ${#need[@]} -eq 0 ]; then echo "install-test-apps: all present"; exit 0; fi
SUDO=""; [ "$(id -u)" -eq 0 ] || SUDO="sudo"
echo "install-test-apps: installing ${need[*]}"
$SUDO apt-get update -qq
# Slim Debian images drop the man pages directory, which the JRE's postinst expects.
$SUDO mkdir -p /usr/share/man/man1
DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq --no-install-recommends "${need[@]}"
