// course::Offsets (common/course/offsets.h): the shifts a grading test gives
// a problem's three arrays, one at a time then all three, and how a failed
// check names them.
#include "doctest_include.h"

#include "course/offsets.h"

TEST_CASE("offsets_one_at_a_time shifts each array alone, then all three") {
    const std::vector<course::Offsets> shifts = course::offsets_one_at_a_time(3);
    REQUIRE(shifts.size() == 4);
    CHECK((shifts[0].a == 3 && shifts[0].b == 0 && shifts[0].c == 0));
    CHECK((shifts[1].a == 0 && shifts[1].b == 3 && shifts[1].c == 0));
    CHECK((shifts[2].a == 0 && shifts[2].b == 0 && shifts[2].c == 3));
    CHECK((shifts[3].a == 3 && shifts[3].b == 3 && shifts[3].c == 3));
}

TEST_CASE("describe names the shifted arrays and the aligned ones") {
    const char* const names[3] = {"A", "B", "C"};
    CHECK(course::describe({1, 0, 0}, names, "float") == "A offset by 1 float, B and C aligned");
    CHECK(course::describe({0, 8, 0}, names, "element") == "B offset by 8 elements, A and C aligned");
    CHECK(course::describe({0, 0, 2}, names, "float") == "C offset by 2 floats, A and B aligned");
    CHECK(course::describe({3, 3, 3}, names, "float") == "A, B and C offset by 3 floats");
    CHECK(course::describe({1, 2, 0}, names, "float") == "A and B offset by (1, 2, 0) floats, C aligned");
    CHECK(course::describe({}, names, "float") == "every array aligned");
}
