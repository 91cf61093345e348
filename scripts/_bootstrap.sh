# Sourced by scripts/serve and scripts/test: enter the project root and make .venv current.
# BOOTSTRAP_REQUIREMENTS names what to install: requirements.txt (the site, for serve) or
# requirements-dev.txt (the site and the test tools, for test).
# shellcheck shell=bash

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$ROOT"

if [[ ! -x .venv/bin/python ]]; then
    PYTHON="$(command -v python3.11 || command -v python3 || true)"
    if [[ -z "$PYTHON" ]]; then
        echo "error: Python 3.11 or newer is needed (python3.11 or python3 on PATH)" >&2
        exit 1
    fi
    echo "Creating .venv with $("$PYTHON" --version)"
    "$PYTHON" -m venv .venv
fi
# shellcheck source=/dev/null
source .venv/bin/activate

# Reinstall only when the pinned requirements change: a stamp in .venv holds the hash of
# each file installed (the test tools' file includes the site's, so it stamps both).
_requirements="${BOOTSTRAP_REQUIREMENTS:-requirements-dev.txt}"
_hash() { cat "$@" | sha256sum | cut -d' ' -f1; }
if [[ "$_requirements" == requirements-dev.txt ]]; then
    _stamp=.venv/.requirements-dev.sha256
    _want="$(_hash requirements.txt requirements-dev.txt)"
    _what="the site's and the test tools' requirements"
else
    _stamp=.venv/.requirements.sha256
    _want="$(_hash requirements.txt)"
    _what="the site's requirements"
fi
if [[ "$(cat "$_stamp" 2>/dev/null || true)" != "$_want" ]]; then
    echo "Installing $_what into .venv (a minute or two the first time)"
    python -m pip install --quiet --disable-pip-version-check -r "$_requirements"
    echo "$_want" >"$_stamp"
    if [[ "$_requirements" == requirements-dev.txt ]]; then
        _hash requirements.txt >.venv/.requirements.sha256
    fi
fi
unset _stamp _want _what _requirements
unset -f _hash

# The translations' .mo files are build output (git-ignored): compile what changed, with
# GNU gettext's msgfmt (Debian's gettext package, installed here when run as root).
if ! command -v msgfmt >/dev/null; then
    if [[ "$(id -u)" == 0 ]] && command -v apt-get >/dev/null; then
        echo "Installing gettext for the translations"
        DEBIAN_FRONTEND=noninteractive apt-get install -y -qq gettext >/dev/null \
            || { apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq gettext >/dev/null; }
    else
        echo "error: msgfmt is missing: install GNU gettext (apt-get install gettext)" >&2
        exit 1
    fi
fi
echo "Compiling the translations"
python manage.py compilemessages --ignore=.venv --verbosity=0
