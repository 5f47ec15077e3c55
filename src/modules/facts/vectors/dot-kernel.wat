;; Integer dot products of one query with many vectors of 8-bit codes, with 128-bit SIMD.
;; Memory layout (all offsets in bytes): `n` vectors of `dim` codes each from `codes`, then the
;; query's `dim` codes at `query`; the `n` sums are written as 32-bit integers from `out`.
;; `dim` is a multiple of 16 (vectors are padded with zero codes). Codes are within -127..127, so
;; a sum over at most 16,384 dimensions fits in 32 bits.
(module
  (memory (import "env" "memory") 1)
  (func (export "dots") (param $codes i32) (param $n i32) (param $dim i32) (param $query i32) (param $out i32)
    (local $v i32) (local $end i32) (local $j i32) (local $acc v128) (local $a v128) (local $b v128)
    (local.set $v (local.get $codes))
    (local.set $end (i32.add (local.get $codes) (i32.mul (local.get $n) (local.get $dim))))
    (block $done
      (loop $vectors
        (br_if $done (i32.ge_u (local.get $v) (local.get $end)))
        (local.set $acc (v128.const i32x4 0 0 0 0))
        (local.set $j (i32.const 0))
        (loop $lanes
          (local.set $a (v128.load (i32.add (local.get $v) (local.get $j))))
          (local.set $b (v128.load (i32.add (local.get $query) (local.get $j))))
          (local.set $acc (i32x4.add (local.get $acc)
            (i32x4.dot_i16x8_s (i16x8.extend_low_i8x16_s (local.get $a)) (i16x8.extend_low_i8x16_s (local.get $b)))))
          (local.set $acc (i32x4.add (local.get $acc)
            (i32x4.dot_i16x8_s (i16x8.extend_high_i8x16_s (local.get $a)) (i16x8.extend_high_i8x16_s (local.get $b)))))
          (local.set $j (i32.add (local.get $j) (i32.const 16)))
          (br_if $lanes (i32.lt_u (local.get $j) (local.get $dim))))
        (i32.store (local.get $out)
          (i32.add
            (i32.add (i32x4.extract_lane 0 (local.get $acc)) (i32x4.extract_lane 1 (local.get $acc)))
            (i32.add (i32x4.extract_lane 2 (local.get $acc)) (i32x4.extract_lane 3 (local.get $acc)))))
        (local.set $out (i32.add (local.get $out) (i32.const 4)))
        (local.set $v (i32.add (local.get $v) (local.get $dim)))
        (br $vectors)))))
