#!/usr/bin/env bash
# Installs what the GUI's browser tests (tests/gui_browser.rs) drive: Debian's chromium and
# chromium-driver (/usr/bin/chromium, /usr/bin/chromedriver). Does nothing when both are there.
# .ci/run calls it; run it by hand (as root, or with sudo available) before
# `MENAGERIE_BROWSER_TESTS=1 cargo test --profile release-tests --test integration -- gui_browser::`.
set -euo pipefail
if command -v chromium >/dev/null 2>&1 && command -v chromedriver >/dev/null 2>&1; then
    echo "install_browser: chromium and chromedriver are installed"
    exit 0
fi
sudo=""
if [ "$(id -u)" != 0 ]; then
    if command -v sudo >/dev/null 2>&1; then
        sudo="sudo"
    else
        echo "install_browser: chromium or chromedriver is missing and this user cannot install packages" >&2
        exit 1
    fi
fi
export DEBIAN_FRONTEND=noninteractive
$sudo apt-get update -qq
$sudo apt-get install -y -qq --no-install-recommends chromium chromium-driver
command -v chromium >/dev/null && command -v chromedriver >/dev/null
echo "install_browser: installed $(chromium --version 2>/dev/null | head -1)"
