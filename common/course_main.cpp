// main() of the course program: every reference solution of every track.
#include "tracks/basics.h"
#include "tracks/matmul.h"

int main(int argc, char** argv) {
    return course::course_main(argc, argv, {basics::track(), matmul::track()});
}
