// doctest's header is <doctest/doctest.h> in Debian's doctest-dev, but
// <doctest.h> in the WrapDB fallback (its include directory is doctest/).
#pragma once
#if __has_include(<doctest/doctest.h>)
#include <doctest/doctest.h>
#else
#include <doctest.h>
#endif
