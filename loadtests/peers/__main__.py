import sys

from loadtests.peers import main

sys.exit(main())
