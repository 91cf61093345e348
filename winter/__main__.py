from __future__ import annotations

import sys

from winter.cli import main

sys.exit(main())
