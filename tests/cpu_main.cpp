// main() of the CPU-only test programs.
#define DOCTEST_CONFIG_IMPLEMENT_WITH_MAIN
#include "doctest_include.h"
