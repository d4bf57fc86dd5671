// main() of the course program: every reference solution of every track.
#include "tracks/basics.h"
#include "tracks/convolution.h"
#include "tracks/matmul.h"
#include "tracks/reduction.h"

int main(int argc, char** argv) {
    return course::course_main(argc, argv,
                               {basics::track(), reduction::track(), matmul::track(), convolution::track()});
}
