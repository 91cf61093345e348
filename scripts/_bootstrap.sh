# Sourced by scripts/serve and scripts/test: enter the project root and make .venv current.
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

# Reinstall only when the pinned requirements change: a stamp in .venv holds their hash.
_stamp=.venv/.requirements.sha256
_want="$(cat requirements.txt requirements-dev.txt | sha256sum | cut -d' ' -f1)"
if [[ "$(cat "$_stamp" 2>/dev/null || true)" != "$_want" ]]; then
    echo "Installing requirements into .venv"
    python -m pip install --quiet --disable-pip-version-check -r requirements-dev.txt
    echo "$_want" >"$_stamp"
fi
unset _stamp _want

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
python manage.py compilemessages --ignore=.venv --verbosity=0
