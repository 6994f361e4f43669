#!/usr/bin/env bash
# Makes sure a Firefox is available for firefox-use. If one is already found (FIREFOX_BIN, or firefox /
# firefox-esr on PATH) nothing is done. Otherwise, on Debian or Ubuntu, it installs the distribution's
# Firefox ESR package with apt-get, which needs root (or sudo). No browser is ever downloaded from elsewhere.
set -euo pipefail

say() { printf 'install-firefox: %s\n' "$*"; }

if [ -n "${FIREFOX_BIN:-}" ] && [ -x "${FIREFOX_BIN}" ]; then
  say "using FIREFOX_BIN=${FIREFOX_BIN} ($("${FIREFOX_BIN}" --version 2>/dev/null || echo 'version unknown'))"
  exit 0
fi
for name in firefox firefox-esr; do
  if command -v "$name" >/dev/null 2>&1; then
    say "found $(command -v "$name") ($("$name" --version 2>/dev/null || echo 'version unknown')); nothing to install"
    exit 0
  fi
done

if ! command -v apt-get >/dev/null 2>&1; then
  say "no Firefox found and this is not a Debian/Ubuntu system (no apt-get)."
  say "Install Firefox with your system's package manager, or set FIREFOX_BIN to its binary."
  exit 1
fi

if [ "$(id -u)" -eq 0 ]; then
  SUDO=""
elif command -v sudo >/dev/null 2>&1; then
  SUDO="sudo"
  say "installing needs root; using sudo"
else
  say "no Firefox found; installing it needs root. Run as root: apt-get install -y firefox-esr"
  exit 1
fi

say "no Firefox found: installing the distribution's firefox-esr package with apt-get"
export DEBIAN_FRONTEND=noninteractive
$SUDO apt-get update -qq
if ! $SUDO apt-get install -y -qq --no-install-recommends firefox-esr >/dev/null; then
  say "firefox-esr is not packaged here; trying the firefox package"
  $SUDO apt-get install -y -qq --no-install-recommends firefox >/dev/null
fi
for name in firefox-esr firefox; do
  if command -v "$name" >/dev/null 2>&1; then
    say "installed $(command -v "$name") ($("$name" --version 2>/dev/null))"
    exit 0
  fi
done
say "the package installed, but no firefox binary is on PATH"
exit 1
