// Which copy of the step launchers a source file builds.
//
// Every track header declares its launchers (stepNN_...) inside
// `inline namespace COURSE_KERNEL_COPY`. To every caller they are simply
// `<track>::stepNN_...`: an inline namespace is looked into as if it were
// not there. Lessons, solutions and programs build the ordinary copy.
//
// The grading tests build each step's reference solution a second time, with
// COURSE_KERNEL_COPY=solution (tests/meson.build): its launchers are then
// `<track>::solution::stepNN_...`, so that one test program can run the
// student's kernel and the reference solution of the same step side by side,
// in one ladder, on the same GPU (tests/speed_rule.h).
#pragma once

#ifndef COURSE_KERNEL_COPY
#define COURSE_KERNEL_COPY kernels
#endif
