"""The shapes of the data the device hands the web, written once for both sides.

The device's store makes the game reports and the answers about the family's edition files, its simulation the
virtual device's cards and signals; the web (``webui.backend``, ``webui.protocol``) passes them on to a phone. The
store may not import the web, and the web may not import the device (tests/test_boundary_imports.py), so a shape
both need stands here, on neither side: a copy on each side drifts, a key added to one and not the other. Nothing
here belongs to the rules either (a report's figures and a file's problems said in a language are the device's
telling of them, not a rule).

Plain TypedDicts and the standard library only (``rules`` is named for types alone): the daemon loads these
before READY, and both sides import them without pulling in the other.
"""
