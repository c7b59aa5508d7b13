#pragma once
// permute_key of detail/minhash.hpp in the three-instruction PTX form the fused kernel's
// inner loop uses. The definition is
//   h = hi32(a_lo * key + b) + a_hi * key   (mod 2^32)
// and hi32(a_lo * key + b) = hi32(a_lo * key) + b_hi + carry(lo32(a_lo * key) + b_lo):
//   mad.lo.cc.u32  t = lo32(a_lo * key) + b_lo      sets the carry, t itself is unused
//   madc.hi.u32    h = hi32(a_lo * key) + b_hi + carry
//   mad.lo.u32     h = a_hi * key + h
// The same value bit for bit (the fused-vs-CPU Gpu test compares every signature); nvcc
// compiles the C++ form into a 64-bit wide multiply-add plus shifts and moves instead.
#include <cstdint>

namespace gpudedup::detail {

/// One permutation (a, b) of the family in registers: a in 32-bit halves, b whole. b as
/// one 64-bit value lets ptxas keep it in an aligned register pair and fuse the first two
/// instructions into one IMAD.HI.U32 with a 64-bit addend; split in halves it copied
/// half of the pairs into scratch registers every iteration (5 instead of ~3.9 SASS
/// instructions per (shingle, permutation) at PT = 8, docs/performance.md).
struct permutation_regs {
  uint32_t a_lo, a_hi;
  uint64_t b;
};

__device__ __forceinline__ permutation_regs split_permutation(uint64_t a, uint64_t b) {
  return {uint32_t(a), uint32_t(a >> 32), b};
}

__device__ __forceinline__ uint32_t permute_key_ptx(const permutation_regs& p, uint32_t key) {
  uint32_t h;
  // One asm statement: the carry flag does not survive between statements. `=&r`: h is
  // written before a_hi and key are read for the last time.
  asm("{\n\t"
      ".reg .u32 t, b_lo, b_hi;\n\t"
      "mov.b64 {b_lo, b_hi}, %4;\n\t"
      "mad.lo.cc.u32 t, %1, %3, b_lo;\n\t"
      "madc.hi.u32 %0, %1, %3, b_hi;\n\t"
      "mad.lo.u32 %0, %2, %3, %0;\n\t"
      "}"
      : "=&r"(h)
      : "r"(p.a_lo), "r"(p.a_hi), "r"(key), "l"(p.b));
  return h;
}

}  // namespace gpudedup::detail
