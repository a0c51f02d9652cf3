import sys

from hcsched.cli import main

sys.exit(main())
