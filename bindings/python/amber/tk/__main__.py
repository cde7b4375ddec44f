"""``python -m amber.tk``: runs an unmodified Tkinter program with amber.tk attached (see
amber.tk.runner)."""
import sys

from amber.tk.runner import main

sys.exit(main(sys.argv[1:]))
