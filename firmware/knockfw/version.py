# The firmware's version, shown in the settings' about line and sent in the serial hello ("fw"):
# the knockbox package's (pyproject.toml's `version`). The build (firmware/manifest.py's version():
# deploy, the simulator) compiles this module from `VERSION = "<that version>"`, not from this
# text, so a board and the history say which knockbox built its firmware. The sources run as they
# are (the tests) are no release: they say "source".
VERSION = "source"
