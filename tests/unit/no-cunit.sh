# Stands in for the CUnit suites when configure did not find CUnit: `make check` needs them, so it fails
# here, saying what to install, rather than passing without its unit tests.
echo "CUnit was not found when configure ran: the unit suites were not built."
echo "Install it (Debian: apt-get install libcunit1-dev), then re-run configure."
exit 1
