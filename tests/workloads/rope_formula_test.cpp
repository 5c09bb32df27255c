// The RoPE fusions against the per-element formulas of docs/WORKLOADS.md written out here by hand: qkv
// indexed directly (query head h lives in group h / qpk, slot h % qpk; k and v in slots qpk and qpk+1),
// computed in double from the bf16 inputs and rounded once. The interpreter rounds f32 intermediates, so an
// element may differ by one bf16 ulp; most must match exactly.
#include <gtest/gtest.h>

#include <array>
#include <cmath>
#include <cstdlib>
#include <functional>
#include <string>
#include <tuple>

#include "interp/interpreter.h"
#include "support/half.h"
#include "workloads/rope.h"

namespace seam {
namespace {

// bf16 bit patterns mapped to integers that are consecutive for consecutive floats.
int64_t ordered_bf16(double value) {
  const uint16_t bits = double_to_bf16_bits(value);
  return (bits & 0x8000) ? -int64_t{bits & 0x7FFF} : int64_t{bits};
}

double bf16_ulp(double magnitude) {
  const double m = std::max(std::fabs(magnitude), 0x1p-126);
  return std::ldexp(1.0, std::ilogb(m) - 7);
}

// One expected element: its exact value and a bound on the error the f32 intermediates may add (only
// non-negligible where rounded terms are summed, as in the sum over GQA copies).
struct Expected {
  double exact = 0;
  double f32_error = 0;
};

// Checks `actual` (bf16, row-major) against `expected` element by element, reporting the first failures.
void expect_matches(const HostTensor& actual, const Shape& shape,
                    const std::function<Expected(int64_t)>& expected, const std::string& what) {
  ASSERT_EQ(actual.dtype(), DType::BFloat16) << what;
  ASSERT_EQ(actual.shape(), shape) << what;
  int64_t exact_matches = 0, failures = 0;
  for (int64_t i = 0; i < actual.numel(); ++i) {
    const Expected e = expected(i);
    const double got = actual.get_double(i);
    const int64_t ulps = std::llabs(ordered_bf16(got) - ordered_bf16(e.exact));
    exact_matches += ulps == 0;
    // Rounding the exact value once is within half an ulp; f32 intermediates may add one more ulp plus
    // their own error, which matters only under cancellation.
    const bool ok =
        ulps <= 1 || std::fabs(got - e.exact) <= e.f32_error + bf16_ulp(std::fabs(e.exact) + e.f32_error);
    if (!ok && failures++ < 5)
      ADD_FAILURE() << what << " element " << i << ": got " << got << ", expected " << e.exact << " (" << ulps
                    << " bf16 ulps apart)";
  }
  EXPECT_EQ(failures, 0) << what;
  EXPECT_GE(exact_matches, actual.numel() * 9 / 10) << what << ": too few exact matches";
}

// Reads the test's inputs the way docs/WORKLOADS.md describes them.
struct Layout {
  int64_t B, T, nh, ng, qpk, hs, n;
  bool expands;  // thunder GQA: k and v outputs (and gradients) have nh heads

  // qkv[b, t, group, slot, d] of the interleaved [B, T, ng*(qpk+2)*hs] tensor.
  int64_t qkv_index(int64_t b, int64_t t, int64_t group, int64_t slot, int64_t d) const {
    return (b * T + t) * (ng * (qpk + 2) * hs) + (group * (qpk + 2) + slot) * hs + d;
  }
  // x[b, head, t, d] of a [B, heads, T, hs] tensor.
  int64_t head_index(int64_t b, int64_t head, int64_t heads, int64_t t, int64_t d) const {
    return ((b * heads + head) * T + t) * hs + d;
  }
};

// Forward: x[d]*cos[t,d] -/+ x[d+-n/2]*sin[t,d] for d < n, x[d] for d >= n.
Expected rope_element(const std::function<double(int64_t)>& x, const HostTensor& cos, const HostTensor& sin,
                      int64_t t, int64_t d, int64_t n) {
  if (d >= n) return {x(d), 0};
  const double c = cos.get_double(t * n + d), s = sin.get_double(t * n + d);
  const double partner = d < n / 2 ? -x(d + n / 2) : x(d - n / 2);
  const double a = x(d) * c, r = partner * s;
  return {a + r, 0x1p-24 * (std::fabs(a) + std::fabs(r))};
}

// Backward: g[d]*cos[t,d] + R^T(g*sin)[d], R^T(z) = cat(z[n/2:n], -z[:n/2]); the tail passes through.
Expected rope_grad_element(const std::function<double(int64_t)>& g, const HostTensor& cos,
                           const HostTensor& sin, int64_t t, int64_t d, int64_t n) {
  if (d >= n) return {g(d), 0};
  const int64_t partner = d < n / 2 ? d + n / 2 : d - n / 2;
  const double sign = d < n / 2 ? 1.0 : -1.0;
  const double a = g(d) * cos.get_double(t * n + d);
  const double r = sign * g(partner) * sin.get_double(t * n + partner);
  return {a + r, 0x1p-24 * (std::fabs(a) + std::fabs(r))};
}

using Case = std::tuple<std::string, RopeContract>;

class RopeFormula : public testing::TestWithParam<Case> {
 protected:
  static std::vector<std::pair<int64_t, int64_t>> sizes() {
    return {{1, 4}, {2, 3}};
  }  // (B, T), small: the interpreter is slow

  Layout layout(int64_t B, int64_t T) const {
    auto [id, contract] = GetParam();
    const RopeConfig& c = rope_config(id);
    return {B,
            T,
            c.n_head,
            c.n_query_groups,
            c.queries_per_group(),
            c.head_size,
            c.rope_n_elem,
            contract == RopeContract::Thunder && c.n_query_groups != c.n_head};
  }
};

TEST_P(RopeFormula, ForwardMatchesTheDirectFormula) {
  auto [id, contract] = GetParam();
  for (auto [B, T] : sizes()) {
    const Layout L = layout(B, T);
    const std::string at = id + " B=" + std::to_string(B) + " T=" + std::to_string(T);
    Fusion f = build_rope(rope_config(id), {.batch = B, .seq_len = T, .contract = contract});
    std::vector<HostTensor> in = random_inputs(f, 1234 + B);
    std::vector<HostTensor> out = interpret(f, in);
    ASSERT_EQ(out.size(), 3u);
    const HostTensor &qkv = in[0], &cos = in[1], &sin = in[2];
    const int64_t kvh = L.expands ? L.nh : L.ng;

    // Splits a row-major index of a [B, heads, T, hs] output into its coordinates.
    auto coords = [&](int64_t i, int64_t heads) {
      const int64_t d = i % L.hs, t = i / L.hs % L.T, head = i / (L.hs * L.T) % heads,
                    b = i / (L.hs * L.T * heads);
      return std::array<int64_t, 4>{b, head, t, d};
    };
    expect_matches(
        out[0], {B, L.nh, T, L.hs},
        [&](int64_t i) {
          auto [b, h, t, d] = coords(i, L.nh);
          auto x = [&](int64_t e) { return qkv.get_double(L.qkv_index(b, t, h / L.qpk, h % L.qpk, e)); };
          return rope_element(x, cos, sin, t, d, L.n);
        },
        at + " q");
    // A k or v head of the output reads the group it was expanded from (or is that group).
    auto group_of = [&](int64_t head) { return L.expands ? head / L.qpk : head; };
    expect_matches(
        out[1], {B, kvh, T, L.hs},
        [&](int64_t i) {
          auto [b, h, t, d] = coords(i, kvh);
          auto x = [&](int64_t e) { return qkv.get_double(L.qkv_index(b, t, group_of(h), L.qpk, e)); };
          return rope_element(x, cos, sin, t, d, L.n);
        },
        at + " k");
    expect_matches(
        out[2], {B, kvh, T, L.hs},
        [&](int64_t i) {
          auto [b, h, t, d] = coords(i, kvh);
          return Expected{qkv.get_double(L.qkv_index(b, t, group_of(h), L.qpk + 1, d)), 0};
        },
        at + " v");
  }
}

TEST_P(RopeFormula, BackwardMatchesTheDirectFormula) {
  auto [id, contract] = GetParam();
  for (auto [B, T] : sizes()) {
    const Layout L = layout(B, T);
    const std::string at = id + " B=" + std::to_string(B) + " T=" + std::to_string(T);
    Fusion f = build_rope(rope_config(id),
                          {.batch = B, .seq_len = T, .contract = contract, .direction = Direction::Backward});
    std::vector<HostTensor> in = random_inputs(f, 99 + B);
    std::vector<HostTensor> out = interpret(f, in);
    ASSERT_EQ(out.size(), 1u);
    const HostTensor &grad_q = in[0], &grad_k = in[1], &grad_v = in[2], &cos = in[3], &sin = in[4];
    const int64_t kvh = L.expands ? L.nh : L.ng;
    // The gradient of qkv at (b, t, group, slot, d), slot < qpk: query head group*qpk + slot; slot qpk:
    // the key of the group, summed over its qpk copies under thunder GQA; slot qpk+1: the value.
    auto expected = [&](int64_t i) {
      const int64_t d = i % L.hs, slot = i / L.hs % (L.qpk + 2), group = i / (L.hs * (L.qpk + 2)) % L.ng,
                    t = i / (L.hs * (L.qpk + 2) * L.ng) % T, b = i / (L.hs * (L.qpk + 2) * L.ng * T);
      auto rope_grad_of = [&](const HostTensor& g, int64_t head, int64_t heads) {
        auto gd = [&](int64_t e) { return g.get_double(L.head_index(b, head, heads, t, e)); };
        return rope_grad_element(gd, cos, sin, t, d, L.n);
      };
      if (slot < L.qpk) return rope_grad_of(grad_q, group * L.qpk + slot, L.nh);
      const int64_t copies = L.expands ? L.qpk : 1;
      Expected total;
      for (int64_t j = 0; j < copies; ++j) {
        const int64_t head = L.expands ? group * L.qpk + j : group;
        Expected e = slot == L.qpk ? rope_grad_of(grad_k, head, kvh)
                                   : Expected{grad_v.get_double(L.head_index(b, head, kvh, t, d)), 0};
        total.exact += e.exact;
        // Each copy is rounded to f32 before the sum; the sum itself rounds once more.
        total.f32_error += e.f32_error + 0x1p-24 * std::fabs(e.exact);
      }
      return total;
    };
    expect_matches(out[0], {B, T, (L.nh + 2 * L.ng) * L.hs}, expected, at + " dqkv");
  }
}

std::vector<Case> all_cases() {
  std::vector<Case> cases;
  for (int w = 1; w <= 9; ++w)
    for (RopeContract contract : {RopeContract::Thunder, RopeContract::RopeOnly})
      cases.emplace_back("W" + std::to_string(w), contract);
  return cases;
}

INSTANTIATE_TEST_SUITE_P(AllWorkloads, RopeFormula, testing::ValuesIn(all_cases()),
                         [](const testing::TestParamInfo<Case>& info) {
                           return std::get<0>(info.param) + (std::get<1>(info.param) == RopeContract::Thunder
                                                                 ? "_thunder"
                                                                 : "_rope_only");
                         });

// A formula check that can fail: with cos and sin swapped, q no longer matches (guards the test itself).
TEST(RopeFormulaSelfCheck, DetectsSwappedTables) {
  const RopeConfig c{"tiny", 2, 2, 4, 4, 4};
  Fusion f = build_rope(c, {.batch = 1, .seq_len = 2});
  std::vector<HostTensor> in = random_inputs(f, 7);
  std::vector<HostTensor> out = interpret(f, {in[0], in[2], in[1]});
  const Layout L{1, 2, 2, 2, 1, 4, 4, false};
  int64_t differing = 0;
  for (int64_t i = 0; i < out[0].numel(); ++i) {
    const int64_t d = i % 4, t = i / 4 % 2, h = i / 8;
    auto x = [&](int64_t e) { return in[0].get_double(L.qkv_index(0, t, h, 0, e)); };
    differing +=
        ordered_bf16(out[0].get_double(i)) != ordered_bf16(rope_element(x, in[1], in[2], t, d, 4).exact);
  }
  EXPECT_GT(differing, out[0].numel() / 2);
}

}  // namespace
}  // namespace seam
