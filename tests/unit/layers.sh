#!/bin/sh
# The layering of the sources (doc/contributing.md, "Layout"): no include going up a layer, nothing in the
# report that decodes records, no include or call loop among the recorder's or the format's modules (the
# calls read from this build's objects).  scripts/check-layers says what it found.
command -v nm >/dev/null 2>&1 || { echo "SKIP: nm is not installed"; exit 77; }
exec "$CT_PYTHON3" "$CT_TOP_SRCDIR/scripts/check-layers" "$CT_TOP_SRCDIR" "$CT_TOP_BUILDDIR"
