"""`python -m cardtool` runs the command line."""

import sys

from cardtool.cli import main

sys.exit(main())
