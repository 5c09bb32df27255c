// A hand-written fusion in canonical form that uses every op of the table, shared by the text tests.
#pragma once

namespace seam::testing_text {

inline constexpr const char* kEveryOpText = R"(fusion every_op {
  %0 = input {name="x", strides=[1,2]} : f32[2,3]
  %1 = input {name="y"} : f32[2,3]
  %2 = input : i32
  %3 = const {value=2.5} : f32
  %4 = full {value=-inf} : f32[2,3]
  %5 = iota {start=0, step=2} : i64[4]
  %6 = neg %0 : f32[2,3]
  %7 = abs %6 : f32[2,3]
  %8 = exp %7 : f32[2,3]
  %9 = log %8 : f32[2,3]
  %10 = sqrt %9 : f32[2,3]
  %11 = rsqrt %10 : f32[2,3]
  %12 = reciprocal %11 : f32[2,3]
  %13 = sin %12 : f32[2,3]
  %14 = cos %13 : f32[2,3]
  %15 = tanh %14 : f32[2,3]
  %16 = sigmoid %15 : f32[2,3]
  %17 = erf %16 : f32[2,3]
  %18 = logical_not %17 : bool[2,3]
  %19 = add %17, %1 : f32[2,3]
  %20 = sub %19, %3 : f32[2,3]
  %21 = mul %20, %2 : f32[2,3]
  %22 = div %2, %2 : f32
  %23 = pow %21, %22 : f32[2,3]
  %24 = maximum %23, %4 : f32[2,3]
  %25 = minimum %24, %1 : f32[2,3]
  %26 = eq %25, %1 : bool[2,3]
  %27 = ne %25, %1 : bool[2,3]
  %28 = lt %25, %1 : bool[2,3]
  %29 = le %25, %28 : bool[2,3]
  %30 = gt %25, %29 : bool[2,3]
  %31 = ge %25, %30 : bool[2,3]
  %32 = logical_and %26, %27 : bool[2,3]
  %33 = logical_or %32, %31 : bool[2,3]
  %34 = where %33, %25, %3 : f32[2,3]
  %35 = cast %34 {dtype=bf16} : bf16[2,3]
  %36 = broadcast %35 {axes=[0,2]} : bf16[1,2,1,3]
  %37 = expand %36 {shape=[4,2,1,3]} : bf16[4,2,1,3]
  %38 = squeeze %37 {axes=[2]} : bf16[4,2,3]
  %39 = reshape %38 {shape=[8,3]} : bf16[8,3]
  %40 = permute %39 {perm=[1,0]} : bf16[3,8]
  %41 = slice %40 {starts=[0,1], stops=[3,8], steps=[1,2]} : bf16[3,4]
  %42 = pad %41 {low=[1,0], high=[0,-1], value=0} : bf16[4,3]
  %43 = cat %42, %42, %42 {axis=1} : bf16[4,9]
  %44 = sum %43 {axes=[1], keepdim=false} : bf16[4]
  %45 = max %43 {axes=[0,1], keepdim=true} : bf16[1,1]
  %46 = min %5 {axes=[0], keepdim=false} : i64[]
  %47 = permute %43 {perm=[1,0]} : bf16[9,4]
  %48 = matmul %43, %47 : bf16[4,4]
  %49 = linear %48, %48, %44 : bf16[4,4]
  %50 = linear %48, %48 : bf16[4,4]
  %51 = uniform %3, %22, %2, %2 {shape=[2,3], dtype=f32} : f32[2,3]
  %52 = normal %3, %3, %2, %2 {shape=[], dtype=bf16} : bf16[]
  %53 = input {name="ids"} : i32[2,3]
  %54 = gather %0, %53 {axis=1} : f32[2,3]
  %55 = index_select %54, %5 {axis=0} : f32[4,3]
  %56 = slice %53 {starts=[0,0], stops=[2,1], steps=[1,1]} : i32[2,1]
  %57 = take_along_axis %55, %56 {axis=0} : f32[2,3]
  %58 = select %57, %2 {axis=1} : f32[2]
  %59 = select %55, %46 {axis=0} : f32[3]
  return %49, sum=%44, %45, m=%46, %22, %18, %50, %51, %52, %58, %59
}
)";

}  // namespace seam::testing_text
