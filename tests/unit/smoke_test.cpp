#include "core/machine_model.hpp"
#include <gtest/gtest.h>
TEST(MachineModel, DefaultSchema) { EXPECT_EQ(roofline::MachineModel{}.schema, "roofline.machine/1"); }
