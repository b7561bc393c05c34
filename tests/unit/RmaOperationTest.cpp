// The target-side and origin-side data movement of RMA operations
// (mpi_model/rma/Operation): puts and gets through derived datatypes,
// accumulates with predefined operations, fetch and compare-and-swap.
#include "rma/Operation.hpp"

#include "datatype/TypeConstructors.hpp"

#include <gtest/gtest.h>

#include <cstring>
#include <vector>

namespace progsim::mpi::rma {
namespace {

dt::DatatypePtr Int()
{
  return dt::predefined(dt::PrimitiveId::kINT);
}

Operation operation(OpKind kind, const void* origin, std::int64_t origin_count, dt::DatatypePtr origin_type,
                    void* target, std::int64_t target_count, dt::DatatypePtr target_type)
{
  Operation op;
  op.kind = kind;
  op.origin_addr = origin;
  op.origin_count = origin_count;
  op.origin_type = std::move(origin_type);
  op.target_addr = static_cast<char*>(target);
  op.target_count = target_count;
  op.target_type = std::move(target_type);
  op.element_type = Int();
  op.element_index = dt::primitive_index(dt::PrimitiveId::kINT);
  return op;
}

TEST(RmaOperation, PutThroughAVectorTarget)
{
  std::vector<int> origin{1, 2, 3};
  std::vector<int> target(6, -1);
  Operation op = operation(OpKind::Put, origin.data(), 3, Int(), target.data(), 1, dt::make_vector(3, 1, 2, Int()));
  pack_origin(op);
  apply_at_target(op);
  EXPECT_EQ(target, (std::vector<int>{1, -1, 2, -1, 3, -1}));
}

TEST(RmaOperation, GetIntoAVectorOrigin)
{
  std::vector<int> target{7, 8, 9};
  std::vector<int> result(5, 0);
  Operation op = operation(OpKind::Get, nullptr, 0, nullptr, target.data(), 3, Int());
  op.result_addr = result.data();
  op.result_count = 1;
  op.result_type = dt::make_vector(3, 1, 2, Int());
  apply_at_target(op);
  finish_at_origin(op);
  EXPECT_EQ(result, (std::vector<int>{7, 0, 8, 0, 9}));
}

TEST(RmaOperation, GetAccumulateSumsAndFetchesTheOldValues)
{
  std::vector<int> origin{10, 20};
  std::vector<int> target{1, 2};
  std::vector<int> result(2, 0);
  Operation op = operation(OpKind::GetAccumulate, origin.data(), 2, Int(), target.data(), 2, Int());
  op.op = ops::OpId::Sum;
  op.elements = 2;
  op.result_addr = result.data();
  op.result_count = 2;
  op.result_type = Int();
  pack_origin(op);
  apply_at_target(op);
  finish_at_origin(op);
  EXPECT_EQ(target, (std::vector<int>{11, 22}));
  EXPECT_EQ(result, (std::vector<int>{1, 2}));
}

TEST(RmaOperation, NoOpFetchesWithoutWriting)
{
  std::vector<int> target{5};
  int result = 0;
  Operation op = operation(OpKind::GetAccumulate, nullptr, 0, Int(), target.data(), 1, Int());
  op.op = ops::OpId::NoOp;
  op.elements = 1;
  op.result_addr = &result;
  op.result_count = 1;
  op.result_type = Int();
  pack_origin(op);
  apply_at_target(op);
  finish_at_origin(op);
  EXPECT_EQ(target[0], 5);
  EXPECT_EQ(result, 5);
}

TEST(RmaOperation, CompareAndSwapOnlySwapsOnEquality)
{
  int target = 3, value = 9, result = 0;
  for (int compare : {4, 3}) {
    Operation op = operation(OpKind::CompareAndSwap, &value, 1, Int(), &target, 1, Int());
    op.elements = 1;
    op.compare.resize(sizeof compare);
    std::memcpy(op.compare.data(), &compare, sizeof compare);
    op.result_addr = &result;
    op.result_count = 1;
    op.result_type = Int();
    pack_origin(op);
    apply_at_target(op);
    finish_at_origin(op);
    EXPECT_EQ(result, 3);
    EXPECT_EQ(target, compare == 3 ? 9 : 3);
  }
}

TEST(RmaOperation, TypedSpanCoversNegativeStrides)
{
  auto [lo, hi] = typed_span(2, *dt::make_vector(2, 1, -3, Int()));
  // Items at 0 and +extent; the vector's true bounds are [-12, 4).
  EXPECT_LE(lo, -12);
  EXPECT_GE(hi, 4);
  EXPECT_EQ(typed_span(0, *Int()), std::make_pair(std::int64_t{0}, std::int64_t{0}));
}

}  // namespace
}  // namespace progsim::mpi::rma
