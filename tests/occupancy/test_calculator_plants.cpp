// The grading checks itself (step 02, the occupancy calculator): for every
// allocation rule that decides somewhere on this GPU, a calculator that
// leaves that rule out must fail the comparison step 02's grading test makes
// (tests/occupancy/calculator_check.h), and the rules as
// tests/occupancy/calculator_rules.cpp writes them must agree with the CUDA
// runtime everywhere. A change that drops a rule's configurations from the
// comparison fails here.
#include "doctest_include.h"
#include "occupancy/calculator_check.h"

using namespace occupancy::testing;

TEST_CASE("the rules the configurations are derived from agree with the CUDA runtime") {
    const RuntimeComparison model = compare_with_runtime(calculator_without(Rule::none));
    MESSAGE(describe_coverage(runtime_configurations()));
    CHECK_MESSAGE(model.mismatches == 0, "tests/occupancy/calculator_rules.cpp differs from the CUDA runtime in ",
                  model.mismatches, " of ", model.tried, " configurations; the first:", model.first);
}

TEST_CASE("step 02's comparison fails a calculator that leaves out any one allocation rule") {
    const RuntimeConfigurations& all = runtime_configurations();
    for (std::size_t r = 0; r < every_rule().size(); ++r) {
        const Rule rule = every_rule()[r];
        CAPTURE(rule_name(rule));
        // Where a GPU's block register limit equals its register file, as on
        // every GPU the course was measured on, a block that fits the file's
        // partitions also fits that limit: the two block-limit rules decide
        // nowhere, and a calculator without them is right there. Every other
        // rule must decide somewhere.
        const bool implied = (rule == Rule::block_registers || rule == Rule::block_register_rounding) &&
                             all.sm.registers_per_block >= all.sm.registers_per_sm;
        if (implied) {
            MESSAGE(rule_name(rule), ": decides nowhere on this GPU (",
                    all.decisive_found[r] == 0 ? "as expected" : "yet configurations were found", ")");
            continue;
        }
        REQUIRE_MESSAGE(all.decisive_compared[r] > 0, "no configuration where this rule alone decides was found");
        const RuntimeComparison plant = compare_with_runtime(calculator_without(rule));
        MESSAGE(rule_name(rule), ": left out, ", plant.mismatches, " of ", plant.tried,
                " configurations differ from the runtime (", plant.caught_per_rule[r], " of its own ",
                all.decisive_compared[r], ")");
        CHECK(plant.mismatches > 0);
        CHECK(plant.caught_per_rule[r] > 0);
    }
}
